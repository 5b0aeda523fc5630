import type { SQSRecord } from "aws-lambda";
import { TransientError } from "../common/errors.js";
import { mapBounded } from "../common/mapBounded.js";
import type { BusyRecordRequeuer, RequeuedRecord } from "./BusyRecordRequeuer.js";

/** Options of {@link requeueBusyRecords}. */
export interface RequeueBusyOptions {
  requeuer: BusyRecordRequeuer;
  /**
   * Whether a failure means only that the pipeline was busy (the decide function passes the
   * endpoint's `isBusyFailure`); others are given back as they are.
   */
  isBusy: (reason: unknown) => boolean;
  /** Told of each copy sent. */
  onRequeued?: (record: SQSRecord, copy: RequeuedRecord, reason: unknown) => void;
  /** Told of each busy record that could not be re-queued (it is given back to SQS as it was). */
  onRequeueFailed?: (record: SQSRecord, error: unknown) => void;
  /** Copies sent at once. Default 10. */
  concurrency?: number;
}

/**
 * The give-back policy of the decide function: among a batch's failed records (`failures`: record
 * index → why), each that failed only because the pipeline was busy (`options.isBusy`) is
 * re-queued with a delay ({@link BusyRecordRequeuer}). Returns the indices re-queued: the caller
 * reports them as done, so the event source deletes them and their receive count does not grow.
 * A record whose copy could not be sent is not among them and is given back as any failure (SQS
 * redelivers it after the visibility timeout). Never throws.
 */
export async function requeueBusyRecords(
  records: readonly SQSRecord[],
  failures: ReadonlyMap<number, unknown>,
  options: RequeueBusyOptions,
): Promise<Set<number>> {
  const busy = [...failures].filter(([, reason]) => options.isBusy(reason));
  const requeued = new Set<number>();
  await mapBounded(busy, options.concurrency ?? 10, async ([index, reason]) => {
    const record = records[index];
    if (record === undefined) return;
    try {
      const copy = await options.requeuer.requeue(record, retryAfterMsIn(reason));
      requeued.add(index);
      options.onRequeued?.(record, copy, reason);
    } catch (error) {
      options.onRequeueFailed?.(record, error);
    }
  });
  return requeued;
}

/** The first Retry-After along a failure's cause chain. */
function retryAfterMsIn(error: unknown): number | undefined {
  for (let each = error, depth = 0; each !== undefined && depth < 8; depth++) {
    if (each instanceof TransientError && each.retryAfterMs !== undefined) return each.retryAfterMs;
    each = (each as { cause?: unknown } | null)?.cause;
  }
  return undefined;
}
