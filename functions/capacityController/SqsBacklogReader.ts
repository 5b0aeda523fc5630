import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { QueueBacklogReader } from "./capacityPorts.js";
import { LaneResourceReader } from "./LaneResourceReader.js";

/** The queue's answer lacks the attribute asked for, or it is not a count. */
export class QueueAttributeError extends Error {
  override name = "QueueAttributeError";
  constructor(
    readonly queueUrl: string,
    readonly value: string | undefined,
  ) {
    super(
      `GetQueueAttributes of ${queueUrl} gave ApproximateNumberOfMessages ${JSON.stringify(value)}, not a count: check that the URL names an SQS queue`,
    );
  }
}

/**
 * {@link QueueBacklogReader} over `GetQueueAttributes`: `ApproximateNumberOfMessages`, the messages
 * available for retrieval (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_GetQueueAttributes.html).
 * Messages in flight or delayed are not counted: a backlog is what waits for a consumer.
 */
export class SqsBacklogReader
  extends LaneResourceReader<Pick<SQSClient, "send">>
  implements QueueBacklogReader
{
  async visibleMessages(lane: Lane): Promise<number> {
    const queueUrl = this.resources[lane];
    const answer = await this.client.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }),
    );
    const value = answer.Attributes?.ApproximateNumberOfMessages;
    const count = value === undefined || !/^\d+$/.test(value) ? Number.NaN : Number(value);
    if (!Number.isSafeInteger(count)) throw new QueueAttributeError(queueUrl, value);
    return count;
  }
}
