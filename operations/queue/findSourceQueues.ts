import {
  GetQueueAttributesCommand,
  ListDeadLetterSourceQueuesCommand,
  ListQueuesCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { SourceQueueUnknownError } from "./errors.js";

/** Queues looked at, at most, when the queue service cannot list a DLQ's sources itself. */
const MAX_QUEUES_SCANNED = 1000;

/**
 * The queues whose RedrivePolicy names this dead-letter queue, where `dlq redrive` moves messages
 * back to when no `--to` is given: SQS's ListDeadLetterSourceQueues, or, where the queue service
 * lacks that action (fauxqs, the local stack's SQS), the same answer found as SQS finds it — every
 * queue's `RedrivePolicy` read (ListQueues, GetQueueAttributes) and kept when its
 * `deadLetterTargetArn` is the DLQ's ARN.
 *
 * @throws SourceQueueUnknownError when no queue names it, or the queues cannot be read.
 */
export async function findSourceQueues(sqs: Pick<SQSClient, "send">, dlqUrl: string): Promise<string[]> {
  let urls: string[];
  try {
    const output = await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlqUrl }));
    urls = output.queueUrls ?? [];
  } catch (error) {
    try {
      urls = await scanRedrivePolicies(sqs, dlqUrl);
    } catch (scanError) {
      throw new SourceQueueUnknownError(
        dlqUrl,
        `SQS could not list them (${(error as Error).name}), nor could their redrive policies be read (${(scanError as Error).name}: ${(scanError as Error).message})`,
        { cause: scanError },
      );
    }
  }
  if (urls.length === 0) throw new SourceQueueUnknownError(dlqUrl, "no queue sends its dead letters here");
  return urls;
}

async function scanRedrivePolicies(sqs: Pick<SQSClient, "send">, dlqUrl: string): Promise<string[]> {
  const dlqArn = (
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }))
  ).Attributes?.QueueArn;
  if (dlqArn === undefined) throw new Error("the dead-letter queue has no QueueArn");
  const sources: string[] = [];
  let token: string | undefined;
  let scanned = 0;
  do {
    const page = await sqs.send(new ListQueuesCommand({ MaxResults: 1000, NextToken: token }));
    for (const url of page.QueueUrls ?? []) {
      if (scanned >= MAX_QUEUES_SCANNED) break;
      scanned += 1;
      const policy = (
        await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["RedrivePolicy"] }))
      ).Attributes?.RedrivePolicy;
      if (policy !== undefined && targetOf(policy) === dlqArn) sources.push(rebase(url, dlqUrl));
    }
    token = page.NextToken;
  } while (token !== undefined && scanned < MAX_QUEUES_SCANNED);
  return sources;
}

function targetOf(policy: string): string | undefined {
  try {
    const parsed = JSON.parse(policy) as { deadLetterTargetArn?: unknown };
    return typeof parsed.deadLetterTargetArn === "string" ? parsed.deadLetterTargetArn : undefined;
  } catch {
    // A RedrivePolicy that is not JSON names no dead-letter queue.
    return undefined;
  }
}

/**
 * A listed queue's URL on the DLQ URL's origin: an emulator lists its queues under its own host
 * name (fauxqs: `sqs.<region>.localhost`), which the user's URL of the DLQ replaced.
 */
function rebase(url: string, dlqUrl: string): string {
  try {
    const listed = new URL(url);
    const given = new URL(dlqUrl);
    return listed.host === given.host ? url : new URL(listed.pathname, given.origin).href;
  } catch {
    return url;
  }
}
