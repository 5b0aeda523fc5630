import { JOB_MANIFEST_FILE, JOB_RESULTS_FILE, JOB_RESULTS_PREFIX } from "../../contract/index.js";

/** One character of a results key: a fixed one, or any hex digit of the job id. */
type KeyCharacter = string | "hex";

/** A job id in a results key: `job-` and 32 lowercase hex digits (`JOB_ID_PATTERN`). */
const JOB_ID: KeyCharacter[] = [..."job-", ...Array.from({ length: 32 }, () => "hex" as const)];

function fits(character: string, slot: KeyCharacter): boolean {
  return slot === "hex" ? /^[0-9a-f]$/.test(character) : character === slot;
}

/**
 * A key of the results writer's objects (`results/<job_id>/results.jsonl` or `…/manifest.json` in
 * the ingest bucket) that the ingest rule's pattern `<prefix>*<suffix>` would match, or undefined
 * when it matches none. Such a prefix and suffix would ingest each job's results as a new job,
 * whose results would be ingested again: a loop. Exact, not a heuristic: every results key has
 * the same form, so the prefix and the suffix are laid over it character by character (the
 * wildcard may match nothing, so they must not overlap).
 */
export function ingestMatchesResults(prefix: string, suffix: string): string | undefined {
  for (const file of [JOB_RESULTS_FILE, JOB_MANIFEST_FILE]) {
    const slots: KeyCharacter[] = [...JOB_RESULTS_PREFIX, ...JOB_ID, "/", ...file];
    if (prefix.length + suffix.length > slots.length) continue;
    const key = [...slots];
    let matches = true;
    for (const [index, character] of [...prefix].entries()) {
      matches &&= fits(character, slots[index] ?? "");
      key[index] = character;
    }
    const start = slots.length - suffix.length;
    for (const [index, character] of [...suffix].entries()) {
      matches &&= fits(character, slots[start + index] ?? "");
      key[start + index] = character;
    }
    if (matches) return key.map((slot) => (slot === "hex" ? "0" : slot)).join("");
  }
  return undefined;
}
