import { type Message, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { SQS_RECEIVE_MAX } from "./constants.js";

/** Options of {@link receiveMessages}. */
export interface ReceiveMessagesOptions {
  /** How long the received messages stay hidden from other consumers, in seconds. */
  visibilityTimeoutSeconds: number;
  /** Long-poll wait of each call, in seconds (0–20). */
  waitTimeSeconds: number;
}

/**
 * One ReceiveMessage call for up to 10 messages, with every system attribute
 * (`ApproximateReceiveCount`, `SentTimestamp`, `ApproximateFirstReceiveTimestamp`,
 * `DeadLetterQueueSourceArn`, …) and every message attribute.
 */
export async function receiveMessages(
  sqs: Pick<SQSClient, "send">,
  queueUrl: string,
  options: ReceiveMessagesOptions,
): Promise<Message[]> {
  const output = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: SQS_RECEIVE_MAX,
      VisibilityTimeout: options.visibilityTimeoutSeconds,
      WaitTimeSeconds: options.waitTimeSeconds,
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    }),
  );
  return output.Messages ?? [];
}
