import type { MessageAttributeValue, SQSClient } from "@aws-sdk/client-sqs";
import { readMessageFile } from "./readMessageFile.js";
import { type SendMessageBatchesOptions, sendMessageBatches } from "./sendMessageBatches.js";
import type { FailedEntry, SendReport } from "./types.js";

/** Options of {@link submitMessages}. */
export interface SubmitMessagesOptions extends SendMessageBatchesOptions {
  /** The SQS client (for fauxqs: `useQueueUrlAsEndpoint: false`). */
  sqs: Pick<SQSClient, "send">;
  /** The queue to send to. */
  queueUrl: string;
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
  const results = await sendMessageBatches(options.sqs, options.queueUrl, messages, options);
  const report: SendReport = { sent: [], failed: [] };
  const failed: FailedEntry[] = file.refused.map((entry) => ({ ...entry, senderFault: true, attempts: 0 }));
  results.forEach((result, index) => {
    const entry = file.messages[index];
    if (entry === undefined) return;
    const where = entry.id === undefined ? { line: entry.line } : { line: entry.line, id: entry.id };
    if (result.ok) report.sent.push({ ...where, messageId: result.messageId, attempts: result.attempts });
    else
      failed.push({
        ...where,
        code: result.code,
        message: result.message,
        senderFault: result.senderFault,
        attempts: result.attempts,
      });
  });
  report.failed = failed.sort((a, b) => a.line - b.line);
  return report;
}
