/**
 * `decisions outcomes list`: the newest outcomes of a policy (of one status, or with payload
 * conflicts), newest first or by a worth order within a window, one line each or as JSON lines.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type OutcomesReader, ReviewQueueReader, type StoredOutcome } from "../../../core/outcomes/index.js";
import type { Policy } from "../../../core/policy/index.js";
import { readReviewQueueByWorth, type WorthQueuePage } from "../../../core/review/reviewQueueByWorth.js";
import { reviewQueueWorth } from "../../../core/review/reviewQueueWorth.js";
import { DEFAULT_ORDER_WINDOW } from "../../../operations/outcomes/index.js";
import { UsageError } from "../../errors.js";
import { inertJson, inertText } from "../../inertText.js";
import type { CliOutput } from "../../types.js";
import { readLimit, readOrder, readPositive, readStatus } from "./flagReaders.js";
import type { OutcomesValues } from "./flags.js";
import { OUTCOMES_USAGE as USAGE } from "./usage.js";

/**
 * Prints the outcomes `list` selects on `stdout`: newest first (of a status, or with conflicts), or
 * under `--order margin|entropy` the review queue as the console orders it (`queue`: the client
 * and the policy its worth reads); returns the exit code (0).
 * @throws UsageError when the flags contradict each other or one is malformed.
 */
export async function listOutcomes(
  table: OutcomesReader,
  policy: string,
  values: OutcomesValues,
  stdout: CliOutput["stdout"],
  queue: { client: DynamoDBDocumentClient; policy: Policy },
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
  if (order !== "newest" && status !== undefined)
    throw new UsageError(
      `--order ${order} lists the review queue (the items waiting for a person: fallback and audit items), in the console's order: leave out --status`,
      { usage: USAGE },
    );
  const window =
    order === "newest" ? limit : (readPositive("--window", values.window) ?? DEFAULT_ORDER_WINDOW);
  let ordered: Array<{ outcome: StoredOutcome; worth: number }>;
  let windowNote = "";
  if (order === "newest") {
    const read =
      values.conflicts === true
        ? await table.withConflicts(policy, { limit })
        : await table.newest(policy, { limit, ...(status === undefined ? {} : { status }) });
    ordered = read.map((outcome) => ({ outcome, worth: 0 }));
  } else {
    // The review queue in the console's order (core/review): audit items first, then worth over the
    // open questions, then newest; computed over windows of --window waiting entries.
    const worth = (outcome: StoredOutcome) => reviewQueueWorth(outcome, order, queue.policy);
    const reader = new ReviewQueueReader({ client: queue.client, tableName: table.tableName });
    ordered = [];
    let before: string | undefined;
    let first: WorthQueuePage | undefined;
    do {
      const page = await readReviewQueueByWorth({
        reader,
        policies: [policy],
        order,
        worth,
        limit: limit - ordered.length,
        window,
        ...(before === undefined ? {} : { before }),
      });
      first ??= page;
      ordered.push(...page.items.map((outcome) => ({ outcome, worth: worth(outcome) })));
      before = page.next;
    } while (before !== undefined && ordered.length < limit);
    const entries = first?.window.entries ?? 0;
    windowNote =
      first?.window.complete === true
        ? `the whole queue (${entries} waiting)`
        : `the newest --window ${window} waiting first, then older windows`;
  }
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
      ? `${outcomes.length} newest outcome(s) of ${what}${outcomes.length === limit ? ` (--limit ${limit}: more may follow; a larger --limit lists them)` : ""}:\n`
      : `${outcomes.length} item(s) of the review queue of ${what} by ${order} (audit items first, as the console orders them), ordered over ${windowNote}:\n`,
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
