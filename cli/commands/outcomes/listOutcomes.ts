/**
 * `decisions outcomes list`: the newest outcomes of a policy (of one status, or with payload
 * conflicts), newest first or by a worth order within a window, one line each or as JSON lines.
 */
import type { OutcomesReader, StoredOutcome } from "../../../core/outcomes/index.js";
import { DEFAULT_ORDER_WINDOW, orderOutcomes } from "../../../operations/outcomes/index.js";
import { UsageError } from "../../errors.js";
import { inertJson, inertText } from "../../inertText.js";
import type { CliOutput } from "../../types.js";
import { readLimit, readOrder, readPositive, readStatus } from "./flagReaders.js";
import type { OutcomesValues } from "./flags.js";
import { OUTCOMES_USAGE as USAGE } from "./usage.js";

/**
 * Prints the outcomes `list` selects on `stdout`; returns the exit code (0).
 * @throws UsageError when the flags contradict each other or one is malformed.
 */
export async function listOutcomes(
  table: OutcomesReader,
  policy: string,
  values: OutcomesValues,
  stdout: CliOutput["stdout"],
): Promise<number> {
  const status = readStatus(values.status);
  const limit = readLimit(values.limit);
  if (values.conflicts === true && status !== undefined)
    throw new UsageError("--conflicts lists outcomes of every status; leave out --status", { usage: USAGE });
  const order = readOrder(values.order);
  if (values.window !== undefined && order === "newest")
    throw new UsageError("--window bounds a worth order: give --order margin or entropy", { usage: USAGE });
  if (values.conflicts === true && order !== "newest")
    throw new UsageError("--conflicts lists newest first; leave out --order", { usage: USAGE });
  const window =
    order === "newest" ? limit : (readPositive("--window", values.window) ?? DEFAULT_ORDER_WINDOW);
  const read =
    values.conflicts === true
      ? await table.withConflicts(policy, { limit })
      : await table.newest(policy, {
          limit: window,
          ...(status === undefined ? {} : { status }),
        });
  const ordered = orderOutcomes(read, order).slice(0, limit);
  const outcomes = ordered.map((entry) => entry.outcome);
  if (values.json === true) {
    for (const outcome of outcomes) stdout.write(`${inertJson(outcome)}\n`);
    return 0;
  }
  // Ids, answers and reasons come from the table, written by producers: shown inert, so that none
  // can move the cursor or repaint a line.
  const what = inertText(
    `${policy}${status === undefined ? "" : ` with status ${status}`}${values.conflicts === true ? " with payload conflicts" : ""}`,
  );
  if (outcomes.length === 0) {
    stdout.write(`no outcomes of ${what} in ${table.tableName}\n`);
    return 0;
  }
  stdout.write(
    order === "newest"
      ? `${outcomes.length} newest outcome(s) of ${what}:\n`
      : `${outcomes.length} outcome(s) of ${what} by ${order}, ordered within the ${read.length} newest read (--window ${window}${read.length < window ? ": all of them" : ""}):\n`,
  );
  const ids = outcomes.map((outcome) => inertText(outcome.id));
  const idWidth = Math.min(40, Math.max(2, ...ids.map((id) => id.length)));
  outcomes.forEach((outcome, index) => {
    const answers = Object.entries(outcome.answers ?? {}).map(
      ([qid, answer]) => `${qid}=${answer.answer} (${describeAnswer(answer)})`,
    );
    const reason = outcome.reason === undefined ? "" : `  — ${outcome.reason.split("\n")[0]}`;
    const marks = [
      outcome.conflict_count !== undefined ? `  [${outcome.conflict_count} conflict(s)]` : "",
      outcome.history !== undefined ? `  [${outcome.history.length} earlier outcome(s)]` : "",
    ].join("");
    const worth = order === "newest" ? "" : `${order} ${Math.abs(ordered[index]?.worth ?? 0).toFixed(3)}  `;
    const rest = inertText(`${worth}${answers.join("  ")}${reason}${marks}`);
    stdout.write(
      `${inertText(outcome.updated_at)}  ${inertText(outcome.status).padEnd(10)}  ${(ids[index] ?? "").padEnd(idWidth)}  ${rest}\n`,
    );
  });
  return 0;
}

/**
 * How `list` shows an answer: the model's own answer with its probability; a rule's, the fallback's
 * or a person's with the model's probability of that same answer (`P=…`, from the distribution),
 * or none when the distribution does not hold it — never the probability of another answer.
 */
function describeAnswer(answer: NonNullable<StoredOutcome["answers"]>[string]): string {
  if (answer.source === "model") return answer.probability.toFixed(2);
  const own = answer.distribution[String(answer.answer)];
  return own === undefined ? answer.source : `${answer.source}, P=${own.toFixed(2)}`;
}
