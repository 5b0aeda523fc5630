import { ListDeadLetterSourceQueuesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { SourceQueueUnknownError } from "./errors.js";

/**
 * The queues whose RedrivePolicy names this dead-letter queue (SQS's ListDeadLetterSourceQueues),
 * where `dlq redrive` moves messages back to when no `--to` is given.
 *
 * @throws SourceQueueUnknownError when SQS names none, or cannot (an emulator without the action).
 */
export async function findSourceQueues(sqs: Pick<SQSClient, "send">, dlqUrl: string): Promise<string[]> {
  let urls: string[];
  try {
    const output = await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlqUrl }));
    urls = output.queueUrls ?? [];
  } catch (error) {
    throw new SourceQueueUnknownError(dlqUrl, `SQS could not list them (${(error as Error).name})`, {
      cause: error,
    });
  }
  if (urls.length === 0) throw new SourceQueueUnknownError(dlqUrl, "no queue sends its dead letters here");
  return urls;
}
