import {
  GetQueueUrlCommand,
  type MessageAttributeValue,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSRecord } from "aws-lambda";
import { PipelineError } from "../common/errors.js";
import { REQUEUE_ATTRIBUTES, readRequeueLineage } from "./requeueAttributes.js";

/** Options of a {@link BusyRecordRequeuer}. */
export interface BusyRecordRequeuerOptions {
  /** An SQS client (SDK retries as configured; a failed send leaves the record to SQS's own redelivery). */
  sqs: SQSClient;
  /** Cap of the first re-queue's delay, in seconds; it doubles with each re-queue of the same item. Default 2. */
  baseDelaySeconds?: number;
  /** Largest delay cap, in seconds (SQS allows 900). Default 60. */
  maxDelaySeconds?: number;
  /** Uniform random number in [0, 1), for the jitter. Default `Math.random`. */
  random?: () => number;
}

/** A record sent back to its queue as a delayed copy. */
export interface RequeuedRecord {
  /** The copy's message id. */
  messageId: string;
  delaySeconds: number;
  /** Re-queues of this item so far, this one included. */
  requeues: number;
  /** The message the item first arrived in. */
  firstMessageId: string;
}

/** A record could not be re-queued (too many attributes, an ARN that names no queue, the send failed). */
export class RequeueError extends PipelineError {
  override name = "RequeueError";
  constructor(
    readonly messageId: string,
    why: string,
    options?: ErrorOptions,
  ) {
    super(`message ${messageId} could not be re-queued: ${why}`, options);
  }
}

const SQS_MAX_DELAY_SECONDS = 900;
const SQS_MAX_ATTRIBUTES = 10;
const ARN = /^arn:[^:]+:sqs:([^:]+):(\d{12}):(.+)$/;

/**
 * Sends a record that failed only because the pipeline was busy back to its own queue as a new
 * message, delayed (`SendMessage` with `DelaySeconds`): the same body and attributes, plus the
 * lineage of {@link REQUEUE_ATTRIBUTES}. The caller then reports the original as done, so the
 * event source deletes it. The copy starts with a receive count of 0, which keeps the DLQ's
 * `maxReceiveCount` for real failures; the outcome write is conditional on the key, so a copy that
 * meets an outcome already written (the original came back after all) is a `duplicate`, never a
 * second outcome.
 *
 * The delay is drawn with full jitter below min(maxDelaySeconds, baseDelaySeconds·2^(n−1)) for the
 * item's n-th re-queue, at least 1 s and at least the endpoint's Retry-After.
 *
 * @example
 * const requeuer = new BusyRecordRequeuer({ sqs });
 * const copy = await requeuer.requeue(record, 2_000);
 */
export class BusyRecordRequeuer {
  readonly baseDelaySeconds: number;
  readonly maxDelaySeconds: number;
  readonly #sqs: SQSClient;
  readonly #random: () => number;
  readonly #queueUrls = new Map<string, Promise<string>>();

  /** @throws {RangeError} for delays outside 1..900 s or out of order. */
  constructor(options: BusyRecordRequeuerOptions) {
    this.#sqs = options.sqs;
    this.baseDelaySeconds = options.baseDelaySeconds ?? 2;
    this.maxDelaySeconds = options.maxDelaySeconds ?? 60;
    this.#random = options.random ?? Math.random;
    if (
      !(this.baseDelaySeconds >= 1 && this.baseDelaySeconds <= this.maxDelaySeconds) ||
      this.maxDelaySeconds > SQS_MAX_DELAY_SECONDS
    ) {
      throw new RangeError(
        `delays must satisfy 1 ≤ baseDelaySeconds ≤ maxDelaySeconds ≤ 900, got ${this.baseDelaySeconds} and ${this.maxDelaySeconds}`,
      );
    }
  }

  /** The delay of an item's `requeues`-th re-queue (1-based), given the endpoint's Retry-After. */
  delayFor(requeues: number, retryAfterMs = 0): number {
    const cap = Math.min(this.maxDelaySeconds, this.baseDelaySeconds * 2 ** Math.max(0, requeues - 1));
    const jittered = Math.floor(this.#random() * cap);
    return Math.min(SQS_MAX_DELAY_SECONDS, Math.max(1, jittered, Math.ceil(retryAfterMs / 1000)));
  }

  /**
   * Sends the delayed copy of `record` to the queue its `eventSourceARN` names.
   *
   * @throws RequeueError when the copy could not be sent; the original must then be given back.
   */
  async requeue(record: SQSRecord, retryAfterMs?: number): Promise<RequeuedRecord> {
    const lineage = readRequeueLineage(record.messageAttributes);
    const requeues = lineage.requeues + 1;
    const firstMessageId = lineage.firstMessageId ?? record.messageId;
    const firstSentMs = lineage.firstSentMs ?? Number(record.attributes?.SentTimestamp);
    const attributes: Record<string, MessageAttributeValue> = {};
    for (const [name, value] of Object.entries(record.messageAttributes ?? {})) {
      if (Object.values(REQUEUE_ATTRIBUTES).includes(name as never)) continue;
      attributes[name] = {
        DataType: value.dataType,
        ...(value.stringValue !== undefined ? { StringValue: value.stringValue } : {}),
        ...(value.binaryValue !== undefined ? { BinaryValue: Buffer.from(value.binaryValue, "base64") } : {}),
      };
    }
    attributes[REQUEUE_ATTRIBUTES.requeues] = { DataType: "Number", StringValue: String(requeues) };
    attributes[REQUEUE_ATTRIBUTES.firstMessageId] = { DataType: "String", StringValue: firstMessageId };
    if (Number.isFinite(firstSentMs) && firstSentMs > 0) {
      attributes[REQUEUE_ATTRIBUTES.firstSentMs] = { DataType: "Number", StringValue: String(firstSentMs) };
    }
    if (Object.keys(attributes).length > SQS_MAX_ATTRIBUTES) {
      throw new RequeueError(
        record.messageId,
        `it has more message attributes than a copy can carry (${SQS_MAX_ATTRIBUTES})`,
      );
    }
    const delaySeconds = this.delayFor(requeues, retryAfterMs);
    let answer: { MessageId?: string | undefined };
    try {
      answer = await this.#sqs.send(
        new SendMessageCommand({
          QueueUrl: await this.#queueUrl(record),
          MessageBody: record.body,
          DelaySeconds: delaySeconds,
          MessageAttributes: attributes,
        }),
      );
    } catch (error) {
      if (error instanceof RequeueError) throw error;
      throw new RequeueError(record.messageId, `SendMessage failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return { messageId: answer.MessageId ?? "", delaySeconds, requeues, firstMessageId };
  }

  /** The queue's URL from its ARN (GetQueueUrl, once per queue: the URL's form differs by endpoint). */
  #queueUrl(record: SQSRecord): Promise<string> {
    const arn = record.eventSourceARN;
    let url = this.#queueUrls.get(arn);
    if (url === undefined) {
      const match = ARN.exec(arn ?? "");
      if (match === null) {
        return Promise.reject(
          new RequeueError(record.messageId, `its eventSourceARN "${arn}" names no SQS queue`),
        );
      }
      url = this.#sqs
        .send(new GetQueueUrlCommand({ QueueName: match[3], QueueOwnerAWSAccountId: match[2] }))
        .then((answer) => {
          if (answer.QueueUrl === undefined) throw new Error(`GetQueueUrl named no URL for ${arn}`);
          return answer.QueueUrl;
        });
      // A failed look-up is tried again next time.
      url.catch(() => this.#queueUrls.delete(arn));
      this.#queueUrls.set(arn, url);
    }
    return url;
  }
}
