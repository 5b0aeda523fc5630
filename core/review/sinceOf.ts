import { type Instant, InstantTextError, parseInstant } from "../../contract/time/parseInstant.js";
import { ReviewRequestError } from "./errors.js";

/**
 * The `since` query parameter of a policy's pictures as an instant, parsed as the CLI's `--since`
 * is (`parseInstant`: an ISO-8601 date or date-time with its zone, years 1970 to 9999).
 * @throws ReviewRequestError at `query.since`, saying what is wrong and what to give.
 */
export function sinceOf(text: string): Instant {
  try {
    return parseInstant(text);
  } catch (error) {
    if (error instanceof InstantTextError)
      throw new ReviewRequestError(["query", "since"], error.message, { cause: error });
    throw error;
  }
}
