import type { SQSBatchResponse, SQSRecord } from "aws-lambda";
import { REASON_CHARS } from "../../contract/outcome/outcomeLimits.js";
import type { Clock } from "../../core/common/Clock.js";
import { Deadline } from "../../core/common/Deadline.js";
import { mapBounded } from "../../core/common/mapBounded.js";
import { truncateText } from "../../core/common/truncateText.js";
import { isBusyFailure } from "../../core/endpoint/isBusyFailure.js";
import type { FailureRecordStore, RecordFailure } from "../../core/failures/index.js";
import { type BusyRecordRequeuer, requeueBusyRecords } from "../../core/flow/index.js";
import type { JobLedger } from "../../core/jobs/JobLedger.js";
import { readJobAttributes } from "../../core/jobs/readJobAttributes.js";
import {
  decideItems,
  type ItemResult,
  type PipelinePorts,
  type WorkItemInput,
} from "../../core/pipeline/index.js";
import type { PolicySet } from "../../core/policy/index.js";
import type { DecideTelemetry } from "./DecideTelemetry.js";
import { parseRecord } from "./parseRecord.js";

/**
 * A job line's record that failed on its last receive goes to the dead-letter queue when its
 * visibility ends: counted here, as dead-lettered, so that its job still completes. This is the
 * one place that knows it — a consumer of the dead-letter queue would have to delete the messages
 * people inspect and redrive there. A record that dies without reporting (a crash or timeout on
 * its last receive) is not counted: its job stops progressing, which the stalled-jobs alarm shows.
 * Best effort: a count that cannot be written is logged, the record fails as it would anyway.
 */
async function countDeadLettered(
  record: SQSRecord,
  reason: unknown,
  jobs: { ledger: JobLedger; maxReceiveCount: number },
  telemetry: DecideTelemetry,
): Promise<void> {
  const job = readJobAttributes(record.messageAttributes);
  const receives = Number.parseInt(record.attributes?.ApproximateReceiveCount ?? "1", 10);
  if (job === undefined || jobs.maxReceiveCount < 1 || !(receives >= jobs.maxReceiveCount)) return;
  const named = namedIn(record.body);
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  try {
    await jobs.ledger.recordDeadLettered(
      job.jobId,
      {
        line: job.line,
        id: named.id ?? record.messageId,
        policy: named.policy ?? "_unparsed",
        status: "dead_lettered",
        reason: truncateText(
          `failed on its last receive (${receives} of maxReceiveCount ${jobs.maxReceiveCount}), dead-lettered: ${text}`,
          REASON_CHARS,
        ),
      },
      { deadline: new Deadline(Date.now() + 10_000) },
    );
  } catch (error) {
    telemetry.logger.error("a dead-lettered job line could not be counted", {
      messageId: record.messageId,
      jobId: job.jobId,
      line: job.line,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The `id` and `policy` a body names, when it is a JSON object naming them as strings. */
function namedIn(body: string): { id?: string; policy?: string } {
  try {
    const value = JSON.parse(body) as { id?: unknown; policy?: unknown };
    return {
      ...(typeof value?.id === "string" ? { id: value.id } : {}),
      ...(typeof value?.policy === "string" ? { policy: value.policy } : {}),
    };
  } catch {
    return {};
  }
}

/** Settings of {@link decideBatch}. */
export interface DecideSettings {
  /** Time kept free at the end: no group starts later than `remaining − deadlineMarginMs`. */
  deadlineMarginMs: number;
  /** Endpoint requests (groups) in flight at once. */
  maxConcurrentGroups: number;
  /**
   * How long an item naming a policy that is not loaded goes back to the queue before it is
   * rejected, from its message's send time (a rollout under way). Default 0: rejected at once.
   */
  unknownPolicyWaitMs?: number;
}

/** Everything the decide function works with: the core's ports, the policies and the settings. */
export interface DecideDeps extends Omit<PipelinePorts, "telemetry"> {
  /** The Powertools telemetry (the middy middlewares use its logger and metrics). */
  telemetry: DecideTelemetry;
  policies: PolicySet;
  settings: DecideSettings;
  /**
   * Re-queues records that failed only because the pipeline was busy (core/flow), so their
   * receive count stays for real failures. Default: none (every failure goes back to SQS).
   */
  requeuer?: BusyRecordRequeuer;
  /** Default: the system clock. */
  clock?: Clock;
  /**
   * The jobs table and the work queue's `maxReceiveCount`: a job line whose record fails on its
   * last receive is counted as dead-lettered (see {@link countDeadLettered}). Default: none.
   */
  jobs?: { ledger: JobLedger; maxReceiveCount: number };
  /**
   * Where the failure record of each record given back is written (the outcomes table, under its
   * own key prefix). Default: none (nothing recorded beyond the log line).
   */
  failures?: FailureRecordStore;
}

/**
 * The grace the shadow step gets after the live work, as a share of the live work's own time: an
 * invocation with a shadow step lasts at most 1.5 × its live work (plus the shadow records' writes).
 */
export const SHADOW_GRACE_SHARE = 0.5;

/** Failure records written at once at the end of a batch. */
const FAILURE_RECORD_CONCURRENCY = 8;
/** The longest the failure records may take: they explain, and must not make the invocation time out. */
const FAILURE_RECORD_BUDGET_MS = 3000;

/**
 * The decide function's batch: each SQS record read into a work item ({@link parseRecord}), the
 * items decided by the pipeline core (`decideItems`), and the records whose items failed (a
 * transient failure, a deadline) returned as `batchItemFailures`, each logged and counted, so SQS
 * redelivers exactly those, and each one's failure record written (`failures`: its reason,
 * attempts and time, for `decisions dlq list` and `decisions outcomes show`). Permanent failures are not among them: they became `rejected`
 * outcomes. With a `requeuer`, a record that failed only because the pipeline was busy is
 * re-queued as a delayed copy instead (core/flow) and reported done. Never throws: should the
 * core throw, every record is reported as failed.
 *
 * Written here rather than with `@middy/sqs-partial-batch-failure`: that middleware wants the
 * handler to return one settled promise per record and swaps in the response afterwards, which its
 * types cannot express (the handler needed an `as unknown as SQSBatchResponse` cast); the core's
 * results already say which items failed, and the response is that list.
 */
export async function decideBatch(
  records: readonly SQSRecord[],
  context: { getRemainingTimeInMillis(): number },
  deps: DecideDeps,
): Promise<SQSBatchResponse> {
  const started = performance.now();
  const inputs = records.map(parseRecord);
  let results: ItemResult[];
  try {
    ({ results } = await decideItems(inputs, deps, {
      policies: deps.policies,
      remainingMs: context.getRemainingTimeInMillis(),
      deadlineMarginMs: deps.settings.deadlineMarginMs,
      maxConcurrentGroups: deps.settings.maxConcurrentGroups,
      unknownPolicyWaitMs: deps.settings.unknownPolicyWaitMs ?? 0,
    }));
  } catch (error) {
    results = records.map(() => ({ status: "failed", reason: error }));
  }
  timeSendToOutcome(inputs, results, deps.telemetry);
  // Busy, not failed: such records are re-queued as delayed copies and reported done.
  const requeued = new Set<number>();
  if (deps.requeuer !== undefined) {
    const failures = new Map<number, unknown>();
    for (const [index, result] of results.entries()) {
      if (result?.status === "failed") failures.set(index, result.reason);
    }
    for (const index of await requeueBusyRecords(records, failures, {
      requeuer: deps.requeuer,
      isBusy: isBusyFailure,
      onRequeued: (record, copy, reason) => deps.telemetry.recordRequeued(record.messageId, copy, reason),
    })) {
      requeued.add(index);
    }
  }
  const batchItemFailures: SQSBatchResponse["batchItemFailures"] = [];
  const given: RecordFailure[] = [];
  for (const [index, record] of records.entries()) {
    const result = results[index];
    if (result?.status !== "failed" || requeued.has(index)) continue;
    const item = itemOf(result);
    deps.telemetry.recordFailed(record.messageId, result.reason, item);
    batchItemFailures.push({ itemIdentifier: record.messageId });
    if (deps.jobs !== undefined) await countDeadLettered(record, result.reason, deps.jobs, deps.telemetry);
    given.push({
      messageId: record.messageId,
      ...(item ? { item } : {}),
      reason: result.reason,
      attempts: receiveCountOf(record),
    });
  }
  if (deps.failures !== undefined && given.length > 0) {
    await recordFailures(deps.failures, given, context, deps.telemetry);
  }
  // Last: the candidate's steps, within a grace of half the live work's own time (the live outcomes
  // and the batch's answer are settled above and do not change): a candidate that has not answered
  // by then is abandoned, so a stalled one delays the next batch by at most that share.
  const liveMs = performance.now() - started;
  await deps.shadow?.drain({
    graceMs: Math.min(liveMs * SHADOW_GRACE_SHARE, context.getRemainingTimeInMillis()),
  });
  return { batchItemFailures };
}

/**
 * Writes the failure records of the records given back, within what is left of the invocation
 * (at most {@link FAILURE_RECORD_BUDGET_MS}). A record not written is logged; the records go back
 * to SQS either way.
 */
async function recordFailures(
  store: FailureRecordStore,
  failures: readonly RecordFailure[],
  context: { getRemainingTimeInMillis(): number },
  telemetry: DecideTelemetry,
): Promise<void> {
  const budget = Math.min(FAILURE_RECORD_BUDGET_MS, context.getRemainingTimeInMillis() - 500);
  if (budget <= 0) {
    for (const failure of failures) telemetry.failureRecordNotWritten(failure.messageId, "no time was left");
    return;
  }
  const signal = AbortSignal.timeout(budget);
  const written = await mapBounded(failures, FAILURE_RECORD_CONCURRENCY, (failure) =>
    store.record(failure, { signal }),
  );
  for (const [index, result] of written.entries()) {
    if (result.status === "rejected") {
      telemetry.failureRecordNotWritten(failures[index]?.messageId ?? "", result.reason);
    }
  }
}

/**
 * `SendToOutcome` of each outcome written: from its message's send (`SentTimestamp`, or the first
 * message's for a re-queued copy, as `parseRecord` reads it) to the outcome's `updated_at`, the
 * moment it was built for the write. Duplicates and failures wrote nothing and are not timed.
 */
function timeSendToOutcome(
  inputs: readonly WorkItemInput[],
  results: readonly ItemResult[],
  telemetry: DecideTelemetry,
): void {
  for (const [index, result] of results.entries()) {
    const origin = inputs[index]?.origin;
    if (result?.status !== "recorded" || origin?.kind !== "sqs" || origin.sentAt === undefined) continue;
    const writtenAt = Date.parse(result.outcome.updated_at);
    if (Number.isFinite(writtenAt)) telemetry.sendToOutcome(writtenAt - origin.sentAt);
  }
}

function receiveCountOf(record: SQSRecord): number {
  const count = Number.parseInt(record.attributes?.ApproximateReceiveCount ?? "1", 10);
  return Number.isFinite(count) ? count : 1;
}

function itemOf(result: ItemResult): { policy: string; id: string } | undefined {
  return result.status === "failed" && result.policy !== undefined && result.id !== undefined
    ? { policy: result.policy, id: result.id }
    : undefined;
}
