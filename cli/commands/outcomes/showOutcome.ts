/**
 * `decisions outcomes show`: one outcome as stored (JSON on stdout) and its history for a person (on
 * stderr); for an item without an outcome, the decide function's failure record of it.
 */
import type { FailureRecordStore } from "../../../core/failures/index.js";
import { OutcomeNotFoundError, type OutcomesReader } from "../../../core/outcomes/index.js";
import { formatReviewHistory } from "../../../operations/outcomes/index.js";
import { inertJson, inertLines, inertText } from "../../inertText.js";
import type { CliOutput } from "../../types.js";

/**
 * Prints the outcome `policy`/`id`; returns the exit code: 0, or 1 when the item has no outcome but
 * a failure record (printed as `{"outcome": null, "last_failure": …}`).
 * @throws OutcomeNotFoundError when the item has neither.
 */
export async function showOutcome(
  table: OutcomesReader,
  failures: FailureRecordStore,
  policy: string,
  id: string,
  { stdout, stderr }: CliOutput,
): Promise<number> {
  const outcome = await table.get(policy, id);
  if (outcome !== undefined) {
    stdout.write(`${inertJson(outcome, 2)}\n`);
    // The history for a person on stderr, so that stdout stays the outcome's JSON for tools.
    stderr.write(
      inertLines(
        `history of ${policy}/${id}:\n${formatReviewHistory(outcome)
          .map((line) => `  ${line}\n`)
          .join("")}`,
      ),
    );
    return 0;
  }
  // No outcome yet: the decide function's failure record says why the item is still undecided.
  const failure = await failures.byItem(policy, id);
  if (failure === undefined) throw new OutcomeNotFoundError(table.tableName, policy, id);
  stderr.write(
    `${inertText(`no outcome of ${policy}/${id} yet; the decide function gave its record back ${failure.failures} time(s), last at ${failure.last_failed_at}: ${failure.reason}`)}\n`,
  );
  stdout.write(`${inertJson({ policy, id, outcome: null, last_failure: failure }, 2)}\n`);
  return 1;
}
