import { ChangeMessageVisibilityBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { SQS_BATCH_ENTRIES } from "./constants.js";

/**
 * Makes received messages visible again at once (ChangeMessageVisibilityBatch to 0, 10 per call),
 * so a listing or a failed move leaves them where they were, ready for the next consumer.
 *
 * @returns how many SQS could not release (they reappear when their visibility timeout ends).
 */
export async function releaseMessages(
  sqs: Pick<SQSClient, "send">,
  queueUrl: string,
  receiptHandles: readonly string[],
): Promise<number> {
  let failed = 0;
  for (let start = 0; start < receiptHandles.length; start += SQS_BATCH_ENTRIES) {
    const handles = receiptHandles.slice(start, start + SQS_BATCH_ENTRIES);
    const output = await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: handles.map((handle, index) => ({
          Id: `r${index}`,
          ReceiptHandle: handle,
          VisibilityTimeout: 0,
        })),
      }),
    );
    failed += output.Failed?.length ?? 0;
  }
  return failed;
}
