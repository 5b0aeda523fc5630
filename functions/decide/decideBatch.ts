import type { SQSBatchResponse, SQSRecord } from "aws-lambda";
import { type BusyRecordRequeuer, requeueBusyRecords } from "../flow/index.js";
import { decideItems, type ItemResult, type PipelinePorts } from "../pipeline/index.js";
import type { PolicySet } from "../policy/index.js";
import type { Clock } from "../shared/Clock.js";
import type { DecideTelemetry } from "./DecideTelemetry.js";
import { parseRecord } from "./parseRecord.js";

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
   * Re-queues records that failed only because the pipeline was busy (functions/flow), so their
   * receive count stays for real failures. Default: none (every failure goes back to SQS).
   */
  requeuer?: BusyRecordRequeuer;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * The decide function's batch: each SQS record read into a work item ({@link parseRecord}), the
 * items decided by the pipeline core (`decideItems`), and the records whose items failed (a
 * transient failure, a deadline) returned as `batchItemFailures`, each logged and counted, so SQS
 * redelivers exactly those. Permanent failures are not among them: they became `rejected`
 * outcomes. With a `requeuer`, a record that failed only because the pipeline was busy is
 * re-queued as a delayed copy instead (functions/flow) and reported done. Never throws: should the
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
  let results: ItemResult[];
  try {
    ({ results } = await decideItems(records.map(parseRecord), deps, {
      policies: deps.policies,
      remainingMs: context.getRemainingTimeInMillis(),
      deadlineMarginMs: deps.settings.deadlineMarginMs,
      maxConcurrentGroups: deps.settings.maxConcurrentGroups,
      unknownPolicyWaitMs: deps.settings.unknownPolicyWaitMs ?? 0,
    }));
  } catch (error) {
    results = records.map(() => ({ status: "failed", reason: error }));
  }
  // Busy, not failed: such records are re-queued as delayed copies and reported done.
  const requeued = new Set<number>();
  if (deps.requeuer !== undefined) {
    const failures = new Map<number, unknown>();
    for (const [index, result] of results.entries()) {
      if (result?.status === "failed") failures.set(index, result.reason);
    }
    for (const index of await requeueBusyRecords(records, failures, {
      requeuer: deps.requeuer,
      onRequeued: (record, copy, reason) => deps.telemetry.recordRequeued(record.messageId, copy, reason),
    })) {
      requeued.add(index);
    }
  }
  const batchItemFailures: SQSBatchResponse["batchItemFailures"] = [];
  for (const [index, record] of records.entries()) {
    const result = results[index];
    if (result?.status !== "failed" || requeued.has(index)) continue;
    deps.telemetry.recordFailed(record.messageId, result.reason, itemOf(result));
    batchItemFailures.push({ itemIdentifier: record.messageId });
  }
  return { batchItemFailures };
}

function itemOf(result: ItemResult): { policy: string; id: string } | undefined {
  return result.status === "failed" && result.policy !== undefined && result.id !== undefined
    ? { policy: result.policy, id: result.id }
    : undefined;
}
