import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { SUPERSEDE_ATTRIBUTE } from "../../contract/outcome/outcomeRecordSchemas.js";
import { readJobAttributes } from "../../core/jobs/readJobAttributes.js";
import type { DeadLetterFailure } from "./DeadLetterFailure.js";
import type { DeadLetterOutcome } from "./DeadLetterOutcome.js";
import { type BodySummary, describeMessageBody } from "./describeMessageBody.js";
import { receiveMessages } from "./receiveMessages.js";
import { releaseMessages } from "./releaseMessages.js";

/** A message in a dead-letter queue, as `decisions dlq list` shows it. */
export interface DeadLetter {
  messageId: string;
  /**
   * Receives before this listing (SQS's `ApproximateReceiveCount` less the listing's own): how
   * often consumers took it without deleting it. SQS keeps the count when it moves a message to
   * the DLQ, so for a redriven message it is at least the work queue's `maxReceiveCount`.
   */
  receiveCount: number;
  /** When it was first sent (ISO-8601), from `SentTimestamp`. */
  sentAt?: string;
  /** When it was first received (ISO-8601), from `ApproximateFirstReceiveTimestamp`. */
  firstReceivedAt?: string;
  /** The queue SQS moved it from (`DeadLetterQueueSourceArn`), when SQS tells. */
  sourceArn?: string;
  /**
   * Why it failed, when the message carries it: a message attribute named like `ErrorMessage`,
   * `ERROR_MESSAGE`, `reason` (Lambda's and EventBridge Pipes' dead letters carry those); else the
   * reason of its failure record when one was read; else undefined.
   */
  reason?: string;
  /** The names of its message attributes. */
  attributes: string[];
  /** The job line it carries (`decisions.job_id`, `decisions.job_line`), when it is one. */
  job?: { jobId: string; line: number };
  body: BodySummary;
  /**
   * The decide function's failure record of it (the last reason, attempts, times), when one was
   * read (`attachFailureRecords`).
   */
  failure?: DeadLetterFailure;
  /**
   * The supersede marker the message carries (`SUPERSEDE_ATTRIBUTE`: it asks to replace a stored
   * outcome), when it carries one.
   */
  supersede?: string;
  /**
   * The outcome already stored for its item, when the letter is a copy of an item that has ended
   * (`attachDecidedOutcomes`): moving it back would decide nothing, so it is safe to purge.
   */
  decided?: DeadLetterOutcome;
}

/** Options of {@link listDeadLetters}. */
export interface ListDeadLettersOptions {
  /** At most this many messages. Default 1000. */
  max?: number;
  /** Long-poll wait of each receive in seconds; an empty answer ends the listing. Default 1. */
  waitTimeSeconds?: number;
  /** How long listed messages stay hidden while the listing runs, in seconds. Default 30. */
  visibilityTimeoutSeconds?: number;
}

/** Attribute names that carry a failure's reason, in order of preference (compared lower-cased). */
const REASON_ATTRIBUTES = ["errormessage", "error_message", "reason", "errorcode", "error_code"];

/**
 * Lists the messages of a queue (a dead-letter queue) without consuming them: receives until an
 * empty answer or `max`, with a visibility timeout long enough that a message is not seen twice,
 * then makes every listed message visible again. Each listed message's receive count goes up by
 * one (SQS counts every receive); the reported count leaves that one out.
 */
export async function listDeadLetters(
  sqs: Pick<SQSClient, "send">,
  queueUrl: string,
  options: ListDeadLettersOptions = {},
): Promise<DeadLetter[]> {
  const max = options.max ?? 1000;
  const seen = new Map<string, DeadLetter>();
  const handles: string[] = [];
  try {
    while (seen.size < max) {
      const messages = await receiveMessages(sqs, queueUrl, {
        visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 30,
        waitTimeSeconds: options.waitTimeSeconds ?? 1,
      });
      const fresh = messages.filter((message) => !seen.has(message.MessageId ?? ""));
      for (const message of messages) if (message.ReceiptHandle) handles.push(message.ReceiptHandle);
      if (fresh.length === 0) break;
      for (const message of fresh) {
        if (seen.size < max) seen.set(message.MessageId ?? "", deadLetterOf(message));
      }
    }
  } finally {
    await releaseMessages(sqs, queueUrl, handles);
  }
  return [...seen.values()];
}

/** What a received message tells about itself. */
export function deadLetterOf(message: Message): DeadLetter {
  const attributes = message.Attributes ?? {};
  const count = Number.parseInt(attributes.ApproximateReceiveCount ?? "1", 10);
  const letter: DeadLetter = {
    messageId: message.MessageId ?? "",
    receiveCount: Number.isFinite(count) ? Math.max(0, count - 1) : 0,
    attributes: Object.keys(message.MessageAttributes ?? {}),
    body: describeMessageBody(message.Body ?? ""),
  };
  const sent = isoOf(attributes.SentTimestamp);
  if (sent !== undefined) letter.sentAt = sent;
  const first = isoOf(attributes.ApproximateFirstReceiveTimestamp);
  if (first !== undefined) letter.firstReceivedAt = first;
  if (attributes.DeadLetterQueueSourceArn !== undefined)
    letter.sourceArn = attributes.DeadLetterQueueSourceArn;
  const job = readJobAttributes(
    Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { stringValue: value.StringValue },
      ]),
    ),
  );
  if (job !== undefined) letter.job = job;
  const supersede = message.MessageAttributes?.[SUPERSEDE_ATTRIBUTE]?.StringValue;
  if (supersede !== undefined && supersede !== "") letter.supersede = supersede;
  const reason = reasonOf(message);
  if (reason !== undefined) letter.reason = reason;
  return letter;
}

function reasonOf(message: Message): string | undefined {
  const byName = new Map(
    Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  for (const name of REASON_ATTRIBUTES) {
    const value = byName.get(name)?.StringValue;
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

function isoOf(epochMs: string | undefined): string | undefined {
  const ms = Number.parseInt(epochMs ?? "", 10);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
