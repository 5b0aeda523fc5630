import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";

/** The attributes of a work queue and its DLQ (the local stack takes them from the template). */
export interface WorkQueueAttributes {
  /** Receives before a message moves to the DLQ (the queue's RedrivePolicy). Default 5. */
  maxReceiveCount?: number;
  /** The queue's default visibility timeout in seconds. Default 30. */
  visibilityTimeoutSeconds?: number;
  /** How long the work queue keeps a message, in seconds. Default: SQS's (4 days). */
  messageRetentionSeconds?: number;
  /** The largest message the work queue accepts, in bytes. Default: the emulator's. */
  maximumMessageBytes?: number;
  /** How long the DLQ keeps a message, in seconds. Default: SQS's (4 days). */
  deadLetterRetentionSeconds?: number;
}

/** Options of {@link createWorkQueue}. */
export interface CreateWorkQueueOptions extends WorkQueueAttributes {
  /** Name of the work queue. */
  name: string;
  /** Name of its dead-letter queue. Default `<name>-dlq`. */
  dlqName?: string;
  /**
   * The emulator's endpoint (`http://127.0.0.1:<port>`). When given, the returned queue URLs point
   * at it: fauxqs' own URLs name `sqs.<region>.localhost`, which does not resolve on every machine,
   * and fauxqs finds a queue by the URL's path alone. Default: the URLs as the service returns them.
   */
  endpoint?: string;
  /** Tags of both queues (the local stack tags each lane's queues `lane=<lane>`). Default none. */
  tags?: Record<string, string>;
}

/** A work queue and its dead-letter queue. */
export interface WorkQueue {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  dlqArn: string;
  maxReceiveCount: number;
}

/**
 * Creates (or finds, CreateQueue being idempotent for equal attributes) a standard queue and its
 * dead-letter queue, with a RedrivePolicy that moves a message to the DLQ once it has been received
 * `maxReceiveCount` times without being deleted.
 *
 * @example
 * const queue = await createWorkQueue(sqs, { name: "work", maxReceiveCount: 3, endpoint: fauxqs.endpoint });
 */
export async function createWorkQueue(sqs: SQSClient, options: CreateWorkQueueOptions): Promise<WorkQueue> {
  const maxReceiveCount = options.maxReceiveCount ?? 5;
  const dlq = await sqs.send(
    new CreateQueueCommand({
      QueueName: options.dlqName ?? `${options.name}-dlq`,
      ...(options.deadLetterRetentionSeconds === undefined
        ? {}
        : { Attributes: { MessageRetentionPeriod: String(options.deadLetterRetentionSeconds) } }),
      tags: options.tags,
    }),
  );
  const dlqUrl = required(dlq.QueueUrl, "QueueUrl of the DLQ");
  const dlqArn = await queueArn(sqs, dlqUrl);
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: options.name,
      Attributes: {
        VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? 30),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
        ...(options.messageRetentionSeconds === undefined
          ? {}
          : { MessageRetentionPeriod: String(options.messageRetentionSeconds) }),
        ...(options.maximumMessageBytes === undefined
          ? {}
          : { MaximumMessageSize: String(options.maximumMessageBytes) }),
      },
      tags: options.tags,
    }),
  );
  const queueUrl = required(queue.QueueUrl, "QueueUrl of the work queue");
  const rebase = (url: string): string =>
    options.endpoint === undefined ? url : new URL(new URL(url).pathname, options.endpoint).href;
  return {
    queueUrl: rebase(queueUrl),
    queueArn: await queueArn(sqs, queueUrl),
    dlqUrl: rebase(dlqUrl),
    dlqArn,
    maxReceiveCount,
  };
}

async function queueArn(sqs: SQSClient, queueUrl: string): Promise<string> {
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }),
  );
  return required(attributes.Attributes?.QueueArn, "QueueArn");
}

function required(value: string | undefined, what: string): string {
  if (value === undefined) throw new Error(`the SQS service returned no ${what}`);
  return value;
}
