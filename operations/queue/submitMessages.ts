import type { MessageAttributeValue, SQSClient } from "@aws-sdk/client-sqs";
import { type SendMessageBatchesOptions, sendMessageBatches } from "../../core/queue/index.js";
import { readMessageFile } from "./readMessageFile.js";
import type { FailedEntry, MessageEntry, SendReport } from "./types.js";

/** Options of {@link submitMessages}. */
export interface SubmitMessagesOptions extends SendMessageBatchesOptions {
  /** The SQS client (for fauxqs: `useQueueUrlAsEndpoint: false`). */
  sqs: Pick<SQSClient, "send">;
  /**
   * The queue to send to, or a function giving each message's queue (`submit --up-info`: its
   * lane's). Messages are sent queue by queue, each queue's in file order.
   */
  queueUrl: string | ((message: MessageEntry) => string);
  /** The input file: work items or events as JSON Lines, or a `.json` event (or array of events). */
  file: string;
  /** Largest message body in UTF-8 bytes; longer ones are refused before sending. Default 1 MiB. */
  maxMessageBytes?: number;
  /** Message attributes every message carries (`submit --supersede`: the supersede marker). Default none. */
  messageAttributes?: Record<string, MessageAttributeValue>;
}

/**
 * `decisions submit`: reads an input file ({@link readMessageFile}) and sends every valid message
 * to the queue ({@link sendMessageBatches}), bodies exactly as written in the file. Entries the
 * file refuses (not JSON, too long) are reported as failed with `senderFault: true` and are not
 * sent. Failures come back in file order.
 *
 * @throws InputFileError when the file cannot be read.
 */
export async function submitMessages(options: SubmitMessagesOptions): Promise<SendReport> {
  const file = await readMessageFile(
    options.file,
    options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes },
  );
  const attributes = options.messageAttributes;
  const messages =
    attributes === undefined
      ? file.messages
      : file.messages.map((message) => ({ ...message, messageAttributes: attributes }));
  const { queueUrl } = options;
  const queueOf = typeof queueUrl === "string" ? () => queueUrl : queueUrl;
  const byQueue = new Map<string, number[]>();
  file.messages.forEach((message, index) => {
    const url = queueOf(message);
    byQueue.set(url, [...(byQueue.get(url) ?? []), index]);
  });
  const results: { queueUrl: string; result: Awaited<ReturnType<typeof sendMessageBatches>>[number] }[] = [];
  for (const [url, indexes] of byQueue) {
    const sent = await sendMessageBatches(
      options.sqs,
      url,
      indexes.map((index) => messages[index] as (typeof messages)[number]),
      options,
    );
    sent.forEach((result, at) => {
      results[indexes[at] as number] = { queueUrl: url, result };
    });
  }
  const report: SendReport = { sent: [], failed: [] };
  const failed: FailedEntry[] = file.refused.map((entry) => ({ ...entry, senderFault: true, attempts: 0 }));
  results.forEach(({ queueUrl: url, result }, index) => {
    const entry = file.messages[index];
    if (entry === undefined) return;
    const where = entry.id === undefined ? { line: entry.line } : { line: entry.line, id: entry.id };
    if (result.ok)
      report.sent.push({ ...where, messageId: result.messageId, attempts: result.attempts, queueUrl: url });
    else
      failed.push({
        ...where,
        code: result.code,
        message: result.message,
        senderFault: result.senderFault,
        attempts: result.attempts,
        queueUrl: url,
      });
  });
  report.failed = failed.sort((a, b) => a.line - b.line);
  return report;
}
