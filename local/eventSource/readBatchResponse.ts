import type { SQSRecord } from "aws-lambda";

/** What Lambda's SQS event source mapping does with a batch after the function returned or threw. */
export interface BatchOutcome {
  /** Records to delete from the queue. */
  succeeded: SQSRecord[];
  /** Records left in flight: visible again after the visibility timeout, then redriven at maxReceiveCount. */
  failed: SQSRecord[];
  /** Why the whole batch counts as failed (a throw, a timeout, an invalid response), when it does. */
  wholeBatchFailure?: string;
}

/** The function's result: it returned `value`, or threw / timed out with `error`. */
export type InvocationResult = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Applies Lambda's rules for a function invoked by an SQS event source mapping:
 * - it threw or timed out → the whole batch failed (nothing is deleted);
 * - without ReportBatchItemFailures → any return value means every record succeeded;
 * - with it, `undefined`/`null`, `{}` or an empty `batchItemFailures` → all succeeded;
 *   `batchItemFailures: [{itemIdentifier}]` → exactly those failed, the rest succeeded;
 *   an identifier that is empty, not a string, or not a message id of the batch, or a
 *   `batchItemFailures` that is not a list → the whole batch failed.
 */
export function readBatchResponse(
  records: SQSRecord[],
  result: InvocationResult,
  reportBatchItemFailures: boolean,
): BatchOutcome {
  const whole = (reason: string): BatchOutcome => ({
    succeeded: [],
    failed: records,
    wholeBatchFailure: reason,
  });
  if (!result.ok) {
    const error = result.error;
    return whole(error instanceof Error ? `${error.name}: ${error.message}` : `threw ${String(error)}`);
  }
  const value = result.value;
  if (!reportBatchItemFailures || value === undefined || value === null)
    return { succeeded: records, failed: [] };
  if (typeof value !== "object" || Array.isArray(value)) return whole("the response is not an object");
  const failures = (value as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return { succeeded: records, failed: [] };
  if (!Array.isArray(failures)) return whole("batchItemFailures is not a list");
  const ids = new Set(records.map((record) => record.messageId));
  const failedIds = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== "string" || id === "" || !ids.has(id)) {
      return whole(`batchItemFailures names ${JSON.stringify(id)}, which is no message id of the batch`);
    }
    failedIds.add(id);
  }
  return {
    succeeded: records.filter((record) => !failedIds.has(record.messageId)),
    failed: records.filter((record) => failedIds.has(record.messageId)),
  };
}
