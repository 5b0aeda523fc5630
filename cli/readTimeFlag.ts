/**
 * The reader of the time flags of the owner's commands (`--since`, `--until`): `parseInstant` of
 * contract/, the parser the review console's query parameters use too, with its refusal turned
 * into a usage error that names the flag.
 */
import { type Instant, InstantTextError, parseInstant } from "../contract/time/parseInstant.js";
import { UsageError } from "./errors.js";

export type { Instant } from "../contract/time/parseInstant.js";

/**
 * Reads a time flag as an instant (years 1970 to 9999, UTC; see `parseInstant`).
 *
 * @throws UsageError naming the flag, what is wrong and what to give.
 * @example readTimeFlag("--since", "2026-12-03").iso // "2026-12-03T00:00:00.000Z"
 */
export function readTimeFlag(flag: string, text: string, usage?: string): Instant {
  try {
    return parseInstant(text);
  } catch (error) {
    if (error instanceof InstantTextError)
      throw new UsageError(`${flag} ${error.message}`, { cause: error, usage });
    throw error;
  }
}
