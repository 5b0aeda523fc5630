import {
  type MessageAttributeValue,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { SQS_BATCH_ENTRIES, SQS_MAX_PAYLOAD_BYTES } from "./sqsLimits.js";

/** A message to send. */
export interface OutgoingMessage {
  /** The body, sent exactly as given. */
  body: string;
  /** Message attributes to send with it (kept by `dlq redrive`). */
  messageAttributes?: Record<string, MessageAttributeValue>;
}

/** How one message ended. */
export type SendResult =
  | { ok: true; messageId: string; attempts: number }
  | {
      ok: false;
      /** SQS's error code for the entry, or the error's name when the whole call failed. */
      code: string;
      message: string;
      /** SQS's `SenderFault`: true when sending it again unchanged cannot succeed. */
      senderFault: boolean;
      attempts: number;
    };

/** Options of {@link sendMessageBatches}. */
export interface SendMessageBatchesOptions {
  /** Attempts per message: an entry SQS failed with `SenderFault: false` is sent again. Default 5. */
  maxAttempts?: number;
  /** Cap of the first backoff in milliseconds, doubling per round. Default 200. */
  baseDelayMs?: number;
  /** Largest backoff cap in milliseconds. Default 5000. */
  maxDelayMs?: number;
  /** Largest payload of one call in UTF-8 bytes. Default {@link SQS_MAX_PAYLOAD_BYTES}. */
  maxBatchBytes?: number;
  /** Uniform random number in [0, 1), for the jitter. Default `Math.random`. */
  random?: () => number;
  /** Waits between rounds. Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Called after each SendMessageBatch call with how many messages have their final result (for progress). */
  onBatch?: (settled: number, total: number) => void;
}

/**
 * Sends messages to a queue with SendMessageBatch: up to 10 entries per call and at most
 * `maxBatchBytes` of payload, bodies unchanged. SQS answers per entry; an entry that failed with
 * `SenderFault: false` (SQS's side) is sent again in a later round after a capped exponential
 * backoff with full jitter, up to `maxAttempts`; one with `SenderFault: true` is reported at once.
 *
 * A call that fails as a whole (after the SDK's own retries: the queue does not exist, access is
 * denied, the network is down) fails its entries with the error's name, and no later call is made:
 * the remaining messages are reported `NotAttempted`, so no message is sent twice by guesswork.
 * Never throws for a failed message; returns one result per message, in order.
 *
 * Hand-written rather than taken from a library: the SDK retries whole calls, not the entries of a
 * partly failed batch, and no installed package does.
 */
export async function sendMessageBatches(
  sqs: Pick<SQSClient, "send">,
  queueUrl: string,
  messages: readonly OutgoingMessage[],
  options: SendMessageBatchesOptions = {},
): Promise<SendResult[]> {
  const maxAttempts = options.maxAttempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const results: (SendResult | undefined)[] = new Array(messages.length).fill(undefined);
  let settled = 0;
  const settle = (index: number, result: SendResult): void => {
    results[index] = result;
    settled += 1;
  };
  let pending = messages.map((_, index) => index);
  let stopped: { code: string; message: string } | undefined;

  for (let attempt = 1; pending.length > 0 && stopped === undefined; attempt += 1) {
    const retry: number[] = [];
    for (const batch of packBatches(pending, messages, options.maxBatchBytes ?? SQS_MAX_PAYLOAD_BYTES)) {
      if (stopped !== undefined) break;
      const entries: SendMessageBatchRequestEntry[] = batch.map((index) => ({
        Id: `m${index}`,
        MessageBody: messages[index]?.body,
        ...(messages[index]?.messageAttributes
          ? { MessageAttributes: messages[index].messageAttributes }
          : {}),
      }));
      try {
        const output = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        for (const ok of output.Successful ?? []) {
          const index = indexOf(ok.Id);
          if (index !== undefined)
            settle(index, { ok: true, messageId: ok.MessageId ?? "", attempts: attempt });
        }
        for (const failed of output.Failed ?? []) {
          const index = indexOf(failed.Id);
          if (index === undefined) continue;
          const senderFault = failed.SenderFault !== false;
          if (!senderFault && attempt < maxAttempts) retry.push(index);
          else
            settle(index, {
              ok: false,
              code: failed.Code ?? "Unknown",
              message: failed.Message ?? "SQS gave no message",
              senderFault,
              attempts: attempt,
            });
        }
      } catch (error) {
        const failure = describeCallError(error);
        stopped = failure;
        for (const index of batch) {
          settle(index, { ok: false, ...failure, senderFault: isClientFault(error), attempts: attempt });
        }
      }
      options.onBatch?.(settled, messages.length);
    }
    pending = retry;
    if (pending.length > 0 && stopped === undefined) {
      await sleep(Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))));
    }
  }
  return results.map(
    (result) =>
      result ?? {
        ok: false,
        code: "NotAttempted",
        message: `not sent: an earlier SendMessageBatch call failed (${stopped?.code ?? "unknown"}: ${stopped?.message ?? ""})`,
        senderFault: false,
        attempts: 0,
      },
  );
}

/** Indexes of `pending` in order, cut into calls of at most 10 entries and `maxBytes` of payload. */
function packBatches(
  pending: readonly number[],
  messages: readonly OutgoingMessage[],
  maxBytes: number,
): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const index of pending) {
    const size = payloadBytes(messages[index]);
    if (current.length === SQS_BATCH_ENTRIES || (current.length > 0 && bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A message's share of a call's payload as SQS counts it: body plus attribute names, types and values. */
function payloadBytes(message: OutgoingMessage | undefined): number {
  if (message === undefined) return 0;
  let bytes = Buffer.byteLength(message.body, "utf8");
  for (const [name, value] of Object.entries(message.messageAttributes ?? {})) {
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value.DataType ?? "");
    bytes += Buffer.byteLength(value.StringValue ?? "") + (value.BinaryValue?.byteLength ?? 0);
  }
  return bytes;
}

function indexOf(id: string | undefined): number | undefined {
  const match = /^m(\d+)$/.exec(id ?? "");
  return match === null ? undefined : Number(match[1]);
}

function describeCallError(error: unknown): { code: string; message: string } {
  if (!(error instanceof Error)) return { code: "Error", message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    code: error.name === "Error" && typeof code === "string" ? code : error.name,
    message: error.message,
  };
}

function isClientFault(error: unknown): boolean {
  return (error as { $fault?: unknown }).$fault === "client";
}
