import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { type SendMessageBatchesOptions, sendMessageBatches } from "../../core/queue/index.js";
import { deleteMessages } from "./deleteMessages.js";
import { type DeadLetter, deadLetterOf } from "./listDeadLetters.js";
import { receiveMessages } from "./receiveMessages.js";
import { releaseMessages } from "./releaseMessages.js";

/** Options of {@link redriveDeadLetters}. */
export interface RedriveDeadLettersOptions {
  /** The dead-letter queue to move messages out of. */
  dlqUrl: string;
  /** The queue to move them to (the work queue). */
  targetUrl: string;
  /** At most this many messages. Default: all. */
  max?: number;
  /** Long-poll wait of each receive in seconds; an empty answer ends the move. Default 1. */
  waitTimeSeconds?: number;
  /**
   * How long a received message stays hidden while it is moved, in seconds. A message whose move
   * failed stays hidden until the end and is then made visible again. Default 60.
   */
  visibilityTimeoutSeconds?: number;
  /** Retries of the sends (see {@link sendMessageBatches}). */
  send?: SendMessageBatchesOptions;
}

/** A message moved back. */
export interface MovedLetter extends DeadLetter {
  /** Its message id in the target queue. */
  newMessageId: string;
}

/** A message that was not moved, or not removed from the DLQ after its copy was sent. */
export interface UnmovedLetter extends DeadLetter {
  /** `send`: not sent, still in the DLQ. `delete`: sent, but still in the DLQ as well. */
  stage: "send" | "delete";
  code: string;
  message: string;
}

/** What {@link redriveDeadLetters} did. */
export interface RedriveReport {
  moved: MovedLetter[];
  failed: UnmovedLetter[];
}

/**
 * Moves messages from a dead-letter queue back to a work queue: receives up to 10, sends them to
 * the target (body and message attributes unchanged, SendMessageBatch with its entry retries),
 * and deletes from the DLQ only the messages whose send succeeded — a message is never deleted
 * before its copy is in the target queue. Repeats until a receive brings nothing new or `max`.
 * Messages that could not be sent are made visible in the DLQ again at the end.
 *
 * A failed delete leaves the message in both queues (the pipeline's outcomes are written once per
 * item id, so deciding it twice records one outcome); it is reported with `stage: "delete"`.
 */
export async function redriveDeadLetters(
  sqs: Pick<SQSClient, "send">,
  options: RedriveDeadLettersOptions,
): Promise<RedriveReport> {
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const report: RedriveReport = { moved: [], failed: [] };
  const seen = new Set<string>();
  const keepHidden: string[] = [];
  try {
    while (report.moved.length + report.failed.length < max) {
      const received = await receiveMessages(sqs, options.dlqUrl, {
        visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 60,
        waitTimeSeconds: options.waitTimeSeconds ?? 1,
      });
      const room = max - report.moved.length - report.failed.length;
      const fresh: Message[] = [];
      for (const message of received) {
        const handle = message.ReceiptHandle ?? "";
        if (seen.has(message.MessageId ?? "") || fresh.length >= room) keepHidden.push(handle);
        else fresh.push(message);
        seen.add(message.MessageId ?? "");
      }
      if (fresh.length === 0) break;
      await moveRound(sqs, options, fresh, report, keepHidden);
    }
  } finally {
    await releaseMessages(sqs, options.dlqUrl, keepHidden);
  }
  return report;
}

async function moveRound(
  sqs: Pick<SQSClient, "send">,
  options: RedriveDeadLettersOptions,
  messages: readonly Message[],
  report: RedriveReport,
  keepHidden: string[],
): Promise<void> {
  const results = await sendMessageBatches(
    sqs,
    options.targetUrl,
    messages.map((message) => ({
      body: message.Body ?? "",
      ...(message.MessageAttributes ? { messageAttributes: message.MessageAttributes } : {}),
    })),
    options.send,
  );
  const sent: { message: Message; newMessageId: string }[] = [];
  results.forEach((result, index) => {
    const message = messages[index];
    if (message === undefined) return;
    if (result.ok) sent.push({ message, newMessageId: result.messageId });
    else {
      keepHidden.push(message.ReceiptHandle ?? "");
      report.failed.push({
        ...deadLetterOf(message),
        stage: "send",
        code: result.code,
        message: result.message,
      });
    }
  });
  const failures = await deleteMessages(
    sqs,
    options.dlqUrl,
    sent.map((entry) => entry.message),
  );
  sent.forEach((entry, index) => {
    const failure = failures[index];
    const letter = deadLetterOf(entry.message);
    if (failure === undefined) report.moved.push({ ...letter, newMessageId: entry.newMessageId });
    else report.failed.push({ ...letter, stage: "delete", ...failure });
  });
}
