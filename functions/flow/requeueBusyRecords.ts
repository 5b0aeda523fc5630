import type { SQSRecord } from "aws-lambda";
import { TransientError } from "../shared/errors.js";
import { mapBounded } from "../shared/mapBounded.js";
import type { BusyRecordRequeuer, RequeuedRecord } from "./BusyRecordRequeuer.js";
import { isBusyFailure } from "./isBusyFailure.js";

/** A record re-queued for capacity: done for this delivery (deleted), its item waits in the copy. */
export interface RequeuedResult {
  status: "requeued";
  copy: RequeuedRecord;
}

/** Options of {@link requeueBusyRecords}. */
export interface RequeueBusyOptions {
  requeuer: BusyRecordRequeuer;
  /** Told of each copy sent. */
  onRequeued?: (record: SQSRecord, copy: RequeuedRecord, reason: unknown) => void;
  /** Told of each busy record that could not be re-queued (it is given back to SQS as it was). */
  onRequeueFailed?: (record: SQSRecord, error: unknown) => void;
  /** Copies sent at once. Default 10. */
  concurrency?: number;
}

/**
 * The give-back policy of the decide function: among a batch's settled results, each record that
 * failed only because the pipeline was busy ({@link isBusyFailure}) is re-queued with a delay
 * ({@link BusyRecordRequeuer}) and becomes a fulfilled {@link RequeuedResult}, so the event source
 * deletes it and its receive count does not grow; a record whose copy could not be sent keeps its
 * failure (SQS redelivers it after the visibility timeout, as for any failure). Every other
 * result is returned unchanged, in record order.
 */
export async function requeueBusyRecords<T>(
  records: readonly SQSRecord[],
  results: readonly PromiseSettledResult<T>[],
  options: RequeueBusyOptions,
): Promise<PromiseSettledResult<T | RequeuedResult>[]> {
  const out: PromiseSettledResult<T | RequeuedResult>[] = [...results];
  const busy = results.flatMap((result, index) =>
    result.status === "rejected" && isBusyFailure(result.reason) ? [index] : [],
  );
  await mapBounded(busy, options.concurrency ?? 10, async (index) => {
    const record = records[index] as SQSRecord;
    const reason = (results[index] as PromiseRejectedResult).reason;
    try {
      const copy = await options.requeuer.requeue(record, retryAfterMsIn(reason));
      out[index] = { status: "fulfilled", value: { status: "requeued", copy } };
      options.onRequeued?.(record, copy, reason);
    } catch (error) {
      options.onRequeueFailed?.(record, error);
    }
  });
  return out;
}

/** The first Retry-After along a failure's cause chain. */
function retryAfterMsIn(error: unknown): number | undefined {
  for (let each = error, depth = 0; each !== undefined && depth < 8; depth++) {
    if (each instanceof TransientError && each.retryAfterMs !== undefined) return each.retryAfterMs;
    each = (each as { cause?: unknown } | null)?.cause;
  }
  return undefined;
}
