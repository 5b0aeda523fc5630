import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";

/** Messages a queue still holds: visible, in flight (not visible) and delayed, as SQS counts them. */
export async function queueDepth(sqs: SQSClient, queueUrl: string): Promise<number> {
  const answer = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
      ],
    }),
  );
  const attributes = answer.Attributes ?? {};
  return (
    Number(attributes.ApproximateNumberOfMessages ?? 0) +
    Number(attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
    Number(attributes.ApproximateNumberOfMessagesDelayed ?? 0)
  );
}
