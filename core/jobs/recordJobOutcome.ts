import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import type { Deadline } from "../common/Deadline.js";
import type { RetryEvent } from "../common/RetryPolicy.js";
import { minimalRejectedOutcome } from "../outcomes/boundOutcomeSize.js";
import { OutcomeAlreadyRecordedError } from "../outcomes/errors.js";
import { putOutcomeOnce, standingOutcomeOf } from "../outcomes/writeOnce.js";
import { lineAuditOf, linePutItem, outcomePutItem } from "./ledgerItems.js";
import type { LedgerTransactItems, TransactionCancellation } from "./ledgerWrites.js";
import { type CounterTable, LINE_LIMIT_ATTRIBUTE, lineCountUpdate, moveCountUpdate } from "./lineCounters.js";
import { resultLineOf } from "./resultLineOf.js";

/** Options of one write: its deadline, and who hears of its retries. */
type WriteOptions = { deadline: Deadline; onRetry?: (event: RetryEvent) => void };

/**
 * What {@link recordJobOutcome} writes with: the ledger's tables and client, its clock, and its
 * writes under the retry policy (the `JobLedger` passes its own).
 */
export interface OutcomeRecording extends CounterTable {
  /** The outcomes table; "" when the ledger has none. */
  outcomesTable: string;
  client: DynamoDBDocumentClient;
  /** The time now, as an ISO string. */
  now(): string;
  /** Runs one attempt of `call` under the ledger's retry policy. */
  send<T>(call: () => Promise<T>, options: WriteOptions): Promise<T>;
  /** Runs one transaction under the retry policy: undefined when it committed, else the reasons. */
  transact(items: LedgerTransactItems, options: WriteOptions): Promise<TransactionCancellation[] | undefined>;
  /** The ledger's completion check (`JobLedger.checkEnded`). */
  checkEnded(jobId: string, options: { deadline: Deadline }): Promise<void>;
}

/**
 * Writes an outcome of a job's line and counts the line, in one transaction (see `JobLedger`).
 *
 * @returns the outcome as written.
 * @throws RangeError when the outcome names no job line, or the ledger has no outcomes table.
 * @throws OutcomeAlreadyRecordedError when the outcome stood already (the line is then counted
 *   once, under that outcome's status, unless it was counted before).
 * @throws TransientOutcomeStoreError / OutcomeStoreError as the outcome store does.
 */
export async function recordJobOutcome(
  ledger: OutcomeRecording,
  outcome: Outcome,
  options: WriteOptions,
): Promise<Outcome> {
  const jobId = outcome.source.job_id;
  const line = outcome.source.line;
  if (jobId === undefined || line === undefined)
    throw new RangeError("recordOutcome: the outcome names no job line");
  if (ledger.outcomesTable === "") throw new RangeError("recordOutcome: this ledger has no outcomes table");
  const atIngest = outcome.source.kind === "s3";
  const reasons = await ledger.transact(
    [
      outcomePutItem(ledger.outcomesTable, outcome),
      linePutItem(ledger.jobsTable, jobId, resultLineOf(line, outcome), lineAuditOf(outcome), ledger.now()),
      lineCountUpdate(ledger, jobId, line, outcome.status, { atIngest, duplicate: false }, ledger.now()),
    ],
    options,
  );
  if (reasons === undefined) {
    await ledger.checkEnded(jobId, options);
    return outcome;
  }
  const [outcomeReason, lineReason] = reasons;
  const found = standingOutcomeOf(
    outcomeReason?.Code === "ConditionalCheckFailed" ? outcomeReason.Item : undefined,
  );
  const existing = found?.item;
  const standing = found?.outcome;
  if (lineReason?.Code === "ConditionalCheckFailed" && lineReason.Item?.status?.S === "dead_lettered") {
    // The line was dead-lettered, and its message redriven: it ends now with an outcome.
    const written = await redeemDeadLettered(ledger, jobId, line, outcome, standing, options);
    if (written) {
      // A move keeps `ended`; the check is for a dead letter whose own check never ran.
      await ledger.checkEnded(jobId, options);
      return outcome;
    }
  }
  if (outcomeReason?.Code === "ConditionalCheckFailed" && lineReason?.Code !== "ConditionalCheckFailed") {
    // The id had an outcome before this line: the line ends with it, counted once.
    if (standing !== undefined) {
      await ledger.transact(
        [
          linePutItem(
            ledger.jobsTable,
            jobId,
            resultLineOf(line, standing, true),
            lineAuditOf(standing),
            ledger.now(),
          ),
          lineCountUpdate(ledger, jobId, line, standing.status, { atIngest, duplicate: true }, ledger.now()),
        ],
        options,
      );
    }
  }
  if (outcomeReason?.Code === "ConditionalCheckFailed") {
    // The line is counted now, here or by an earlier delivery — which may have stopped (a crash,
    // a timeout) after its transaction and before its end check: the check runs again, so the
    // job's last line ends it whatever was delivered twice.
    await ledger.checkEnded(jobId, options);
    throw new OutcomeAlreadyRecordedError(outcome.policy, outcome.id, standing ?? existing);
  }
  const limit = lineLimitOf(reasons[2]);
  if (limit !== undefined && line > limit) {
    // The message names a line the job does not have: not counted, and the item is rejected
    // for it (a forged or mistaken `decisions.job_line`); the rejected outcome names no job.
    const rejected = minimalRejectedOutcome(
      outcome,
      `the message names line ${line} of job ${jobId}, whose object ends at line ${limit}: a line outside the job is not counted (decisions.job_line)`,
    );
    await ledger.send(() => putOutcomeOnce(ledger.client, ledger.outcomesTable, rejected), options);
    return rejected;
  }
  // The transaction failed on a condition other than the outcome's: the outcome is written once, alone.
  await ledger.send(() => putOutcomeOnce(ledger.client, ledger.outcomesTable, outcome), options);
  return outcome;
}

/** The job's line count a counter held when its count update was refused (`line_limit`), if set. */
function lineLimitOf(reason: TransactionCancellation | undefined): number | undefined {
  if (reason?.Code !== "ConditionalCheckFailed") return undefined;
  const text = reason.Item?.[LINE_LIMIT_ATTRIBUTE]?.N;
  return text === undefined ? undefined : Number(text);
}

/**
 * A dead-lettered line whose message was redriven came back with an outcome: the line item is
 * replaced by the outcome's line and the job's count moves from `dead_lettered` to the outcome's
 * status (`ended` stays), in one transaction conditional on the line item still being
 * dead-lettered, so the move happens once whatever is delivered twice. The outcome is written in
 * the same transaction unless one stands for the id already (`standing`): the line then ends
 * with that one (a duplicate when it came from another line). A concurrent writer of the
 * outcome makes one more round with the outcome it wrote.
 *
 * @returns whether `outcome` was written here (false: another outcome stands, or another writer
 *   moved the line first).
 */
async function redeemDeadLettered(
  ledger: OutcomeRecording,
  jobId: string,
  line: number,
  outcome: Outcome,
  standing: Outcome | undefined,
  options: WriteOptions,
): Promise<boolean> {
  let stands = standing;
  for (let round = 0; round < 3; round += 1) {
    const ending = stands ?? outcome;
    const duplicate =
      stands !== undefined && !(stands.source.job_id === jobId && stands.source.line === line);
    const reasons = await ledger.transact(
      [
        ...(stands === undefined ? [outcomePutItem(ledger.outcomesTable, outcome)] : []),
        linePutItem(
          ledger.jobsTable,
          jobId,
          resultLineOf(line, ending, duplicate),
          lineAuditOf(ending),
          ledger.now(),
          { replacing: "dead_lettered" },
        ),
        moveCountUpdate(ledger, jobId, line, ending.status, { duplicate }, ledger.now()),
      ],
      options,
    );
    if (reasons === undefined) return stands === undefined;
    const [first] = reasons;
    if (stands !== undefined || first?.Code !== "ConditionalCheckFailed") return false;
    const found = standingOutcomeOf(first.Item)?.outcome;
    if (found === undefined) return false;
    stands = found;
  }
  return false;
}
