import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";

/** Props of {@link WorkQueue}. */
export interface WorkQueueProps {
  /** Timeout of the function that consumes the queue: the visibility timeout is 6 × this + the window. */
  consumerTimeout: Duration;
  /** The event source's batching window (added to the visibility timeout, as AWS advises). */
  batchingWindow: Duration;
  /** Receives before a message moves to the DLQ. At least 5. */
  maxReceiveCount: number;
  /** Largest message in bytes (1,024 – 1,048,576). */
  maxMessageBytes: number;
  /** How long the queue keeps a message. */
  retention: Duration;
}

/** Multiple of the consumer's timeout that the visibility timeout must reach (AWS's advice for SQS event sources). */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

/** Fewest receives before dead-lettering: a few throttled or timed-out receives must not dead-letter a message. */
export const MIN_MAX_RECEIVE_COUNT = 5;

/**
 * One lane's work queue (work items, EventBridge events, batch-job lines) and its dead-letter
 * queue (a redrive returns letters to this queue, the lane they came from): both encrypted with
 * SSE-SQS, TLS required; redrive after `maxReceiveCount` receives; a visibility timeout of 6 × the
 * consumer's timeout plus the batching window, so a message is not redelivered while a batch that
 * holds it is still running or retried.
 */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    if (props.maxReceiveCount < MIN_MAX_RECEIVE_COUNT) {
      throw new Error(
        `WorkQueue: maxReceiveCount must be at least ${MIN_MAX_RECEIVE_COUNT}, got ${props.maxReceiveCount}`,
      );
    }
    this.deadLetterQueue = new Queue(this, "DeadLetters", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      maxMessageSizeBytes: props.maxMessageBytes,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.queue = new Queue(this, "Queue", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: props.retention,
      maxMessageSizeBytes: props.maxMessageBytes,
      visibilityTimeout: Duration.seconds(
        VISIBILITY_TIMEOUT_FACTOR * props.consumerTimeout.toSeconds() + props.batchingWindow.toSeconds(),
      ),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }
}
