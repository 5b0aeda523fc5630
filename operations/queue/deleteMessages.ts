import { DeleteMessageBatchCommand, type Message, type SQSClient } from "@aws-sdk/client-sqs";
import { SQS_BATCH_ENTRIES } from "./constants.js";

/** Why SQS did not delete a message: its error code and message. */
export interface DeleteFailure {
  code: string;
  message: string;
}

/**
 * Deletes `messages` from a queue in batches of ten (`DeleteMessageBatch`). Returns, in the order of
 * `messages`, `undefined` for each deleted and its {@link DeleteFailure} for each not: the entries
 * SQS reported as failed, or every entry of a batch whose call failed. Never throws.
 */
export async function deleteMessages(
  sqs: Pick<SQSClient, "send">,
  queueUrl: string,
  messages: readonly Message[],
): Promise<(DeleteFailure | undefined)[]> {
  const outcomes: (DeleteFailure | undefined)[] = [];
  for (let start = 0; start < messages.length; start += SQS_BATCH_ENTRIES) {
    const chunk = messages.slice(start, start + SQS_BATCH_ENTRIES);
    let failures: Map<string, DeleteFailure>;
    try {
      const output = await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: chunk.map((message, index) => ({ Id: `d${index}`, ReceiptHandle: message.ReceiptHandle })),
        }),
      );
      failures = new Map(
        (output.Failed ?? []).map((failed) => [
          failed.Id ?? "",
          { code: failed.Code ?? "Unknown", message: failed.Message ?? "SQS gave no message" },
        ]),
      );
    } catch (error) {
      const failure = { code: (error as Error).name, message: (error as Error).message };
      failures = new Map(chunk.map((_, index) => [`d${index}`, failure]));
    }
    chunk.forEach((_, index) => {
      outcomes.push(failures.get(`d${index}`));
    });
  }
  return outcomes;
}
