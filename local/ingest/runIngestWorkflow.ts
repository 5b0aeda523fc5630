import type { Context } from "aws-lambda";
import type { IngestCheckpoint, IngestResult } from "../../functions/ingest/index.js";
import { IngestWorkflowError } from "../errors.js";
import { createLambdaContext } from "../eventSource/createLambdaContext.js";

/** What {@link runIngestWorkflow} did with the objects of one event, all invocations together. */
export interface IngestWorkflowResult {
  /** Lines read (blank lines included). */
  linesRead: number;
  /** Messages sent to the work queue. */
  sent: number;
  /** Lines recorded as `rejected` outcomes. */
  rejected: number;
  /** Lines neither sent nor recorded in some invocation (each was read again from its checkpoint). */
  failed: number;
  /** Ingest invocations. */
  invocations: number;
}

/** Options of {@link runIngestWorkflow}. */
export interface RunIngestWorkflowOptions {
  /** Invokes the ingest function (the local handler's `invoke`). */
  invoke: (input: unknown, context: Context) => Promise<IngestResult>;
  region: string;
  /** The ingest function's timeout. Default 300000 ms (the CDK app's `INGEST_TIMEOUT`). */
  timeoutMs?: number;
  /**
   * Invocations in a row that may end at the checkpoint they started from (every line of it failed
   * for now) before the workflow gives up. Default 5. The deployed loop has no such bound but its
   * 12-hour timeout; locally a stuck queue should be told within seconds.
   */
  maxStalledInvocations?: number;
  /** Stops between invocations (the checkpoint to resume from is in the error). */
  signal?: AbortSignal;
}

/**
 * The CDK app's ingest state machine on this machine: invokes the ingest function with the event
 * (an S3 notification or an EventBridge "Object Created" event), then with each checkpoint of the
 * result's `pending`, one at a time, until none is left — so an object of any length is read in
 * bounded invocations, as `IngestWorkflow` does on AWS.
 *
 * @throws IngestWorkflowError when stopped by the signal or stalled, naming where to resume; the
 *   ingest function's own error when an invocation throws (the deployed execution fails too).
 */
export async function runIngestWorkflow(
  event: unknown,
  options: RunIngestWorkflowOptions,
): Promise<IngestWorkflowResult> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const maxStalled = options.maxStalledInvocations ?? 5;
  const total: IngestWorkflowResult = { linesRead: 0, sent: 0, rejected: 0, failed: 0, invocations: 0 };
  const invoke = async (input: unknown): Promise<IngestResult> => {
    total.invocations += 1;
    const context = createLambdaContext({ functionName: "ingest", region: options.region, timeoutMs });
    const result = await options.invoke(input, context);
    for (const done of result.objects) {
      total.linesRead += done.linesRead;
      total.sent += done.sent;
      total.rejected += done.rejected;
      total.failed += done.failed.length;
    }
    return result;
  };
  let pending = (await invoke(event)).pending;
  let stalled = 0;
  while (pending.length > 0) {
    const next: IngestCheckpoint[] = [];
    for (const checkpoint of pending) {
      if (options.signal?.aborted) throw new IngestWorkflowError("stopped", [...next, checkpoint]);
      const result = await invoke(checkpoint);
      const same = result.pending.some(
        (later) =>
          later.key === checkpoint.key &&
          later.bucket === checkpoint.bucket &&
          later.byteOffset === checkpoint.byteOffset,
      );
      stalled = same ? stalled + 1 : 0;
      if (stalled >= maxStalled) throw new IngestWorkflowError("stalled", result.pending);
      next.push(...result.pending);
    }
    pending = next;
  }
  return total;
}
