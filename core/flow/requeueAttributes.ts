/**
 * The message attributes a re-queued copy carries (SQS message attributes; names may not start
 * with `AWS.` or `Amazon.`): how often the item was re-queued for capacity, and the message it
 * first arrived in with that message's send time — the outcome names the first message, so a
 * re-queued item stays the item its producer sent.
 */
export const REQUEUE_ATTRIBUTES = {
  /** Number: re-queues so far (1 on the first copy). */
  requeues: "decisions.requeues",
  /** String: the id of the message the item first arrived in. */
  firstMessageId: "decisions.first_message_id",
  /** Number: that message's `SentTimestamp`, epoch milliseconds. */
  firstSentMs: "decisions.first_sent_ms",
} as const;

/** What a record's attributes say about its earlier re-queues (nothing for a first delivery). */
export interface RequeueLineage {
  requeues: number;
  firstMessageId?: string;
  firstSentMs?: number;
}

/** Reads {@link REQUEUE_ATTRIBUTES} from a Lambda SQS record's `messageAttributes`. */
export function readRequeueLineage(
  attributes: Record<string, { stringValue?: string | undefined } | undefined> | undefined,
): RequeueLineage {
  const text = (name: string) => attributes?.[name]?.stringValue;
  const count = Number(text(REQUEUE_ATTRIBUTES.requeues) ?? 0);
  const firstSent = Number(text(REQUEUE_ATTRIBUTES.firstSentMs));
  const firstMessageId = text(REQUEUE_ATTRIBUTES.firstMessageId);
  return {
    requeues: Number.isInteger(count) && count > 0 ? count : 0,
    ...(firstMessageId !== undefined && firstMessageId !== "" ? { firstMessageId } : {}),
    ...(Number.isFinite(firstSent) && firstSent > 0 ? { firstSentMs: firstSent } : {}),
  };
}
