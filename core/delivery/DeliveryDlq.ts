import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import {
  type DeliveryFailure,
  DeliveryFailureSchema,
} from "../../contract/delivery/DeliveryFailureSchema.js";

/** A failure as it sits in the DLQ, received (hidden from others until released or deleted). */
export interface HeldFailure {
  messageId: string;
  receiptHandle: string;
  failure: DeliveryFailure;
}

/** What {@link DeliveryDlq.hold} received. */
export interface HeldFailures {
  failures: HeldFailure[];
  /**
   * Messages that are no failure record, released at once: on AWS, delivery messages the queue's
   * own redrive moved here after its receives ran out (the deliver function failed on them).
   */
  others: number;
}

/** How long a listed or redriven failure stays hidden while it is read (seconds). */
const HOLD_SECONDS = 60;

/**
 * The delivery DLQ (an SQS queue): deliveries given up on, one message each, its body the
 * {@link DeliveryFailure} JSON. Locally one queue holds every target's; on AWS each target has its own.
 */
export class DeliveryDlq {
  constructor(
    private readonly sqs: Pick<SQSClient, "send">,
    readonly queueUrl: string,
  ) {}

  /** Keeps a failure. */
  async put(failure: DeliveryFailure): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(failure),
        MessageAttributes: {
          target: { DataType: "String", StringValue: failure.target },
          delivery_id: { DataType: "String", StringValue: failure.delivery_id },
        },
      }),
    );
  }

  /**
   * Receives every failure, up to `max`, each hidden for 60 s until {@link release}d or
   * {@link remove}d. A message that is no failure record is counted in `others` and released.
   */
  async hold(max: number): Promise<HeldFailures> {
    const held: HeldFailure[] = [];
    const strangers: string[] = [];
    while (held.length < max) {
      const output = await this.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: this.queueUrl,
          MaxNumberOfMessages: Math.min(10, max - held.length),
          VisibilityTimeout: HOLD_SECONDS,
          WaitTimeSeconds: 0,
        }),
      );
      const messages = output.Messages ?? [];
      if (messages.length === 0) break;
      for (const message of messages) {
        if (message.ReceiptHandle === undefined || message.MessageId === undefined) continue;
        const parsed = DeliveryFailureSchema.safeParse(safeJson(message.Body ?? ""));
        if (parsed.success)
          held.push({
            messageId: message.MessageId,
            receiptHandle: message.ReceiptHandle,
            failure: parsed.data,
          });
        else strangers.push(message.ReceiptHandle);
      }
    }
    await Promise.all(strangers.map((handle) => this.release(handle)));
    return { failures: held, others: strangers.length };
  }

  /** Makes a held failure visible again at once. */
  async release(receiptHandle: string): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: 0,
      }),
    );
  }

  /** Removes a held failure (it was delivered). */
  async remove(receiptHandle: string): Promise<void> {
    await this.sqs.send(new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: receiptHandle }));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: not a failure this DLQ keeps.
    return undefined;
  }
}
