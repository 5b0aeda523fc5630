import { z } from "zod";

/**
 * Failure records: what the decide function knew when it last gave a record back undecided (its
 * reason, how often it was received, when), so that `decisions dlq list` and `decisions outcomes
 * show` can say why an item has no outcome. They live in the outcomes table under their own key
 * prefix, in two copies: one keyed by the SQS message id (for a message in the DLQ whose body names
 * no item), one by the item's policy and id. Each is small (the reason is cut to
 * {@link FAILURE_REASON_CHARS} code points) and expires ({@link FAILURE_RECORD_TTL_ATTRIBUTE},
 * the table's TTL attribute), 14 days after its last failure, as long as SQS keeps a message.
 *
 * They carry {@link FAILURE_RECORD_KIND} in `record_kind`, which no outcome has: the outcomes
 * Pipe leaves them out of the outcome events, and table scans skip them ({@link isFailureRecordKey}).
 */

/** The start of every failure record's partition key; no policy name starts with `_`. */
export const FAILURE_RECORD_PREFIX = "_failure#";

/** `record_kind` of a failure record (an outcome has no `record_kind`). */
export const FAILURE_RECORD_KIND = "failure";

/** The attribute holding a failure record's expiry (epoch seconds): the outcomes table's TTL attribute. */
export const FAILURE_RECORD_TTL_ATTRIBUTE = "expires_at";

/** How long a failure record is kept after its last failure: SQS's longest retention. */
export const FAILURE_RECORD_RETENTION_SECONDS = 14 * 24 * 60 * 60;

/** Code points of the reason kept. */
export const FAILURE_REASON_CHARS = 1000;

/** The key of the failure record of one SQS message (by its message id). */
export function failureKeyOfMessage(messageId: string): { policy: string; id: string } {
  return { policy: `${FAILURE_RECORD_PREFIX}message#${messageId}`, id: "last" };
}

/** The key of the failure record of one work item (by its policy and id). */
export function failureKeyOfItem(policy: string, id: string): { policy: string; id: string } {
  return { policy: `${FAILURE_RECORD_PREFIX}item#${policy}`, id };
}

/** Whether a partition key value (`policy`) is a failure record's rather than an outcome's. */
export function isFailureRecordKey(policy: unknown): boolean {
  return typeof policy === "string" && policy.startsWith(FAILURE_RECORD_PREFIX);
}

/** Who must act on a failure: see docs/failures.md. */
export const FAILURE_CLASSES = ["configuration", "transient", "other"] as const;

/** A failure record as stored (both copies hold the same fields). */
export const FailureRecordSchema = z.object({
  policy: z.string(),
  id: z.string(),
  record_kind: z.literal(FAILURE_RECORD_KIND),
  /** The SQS message id of the record given back. */
  message_id: z.string(),
  /** The item's policy and id, when the body could be read that far. */
  item_policy: z.string().optional(),
  item_id: z.string().optional(),
  /** The error's class name (`EndpointConfigurationError`, `RetriesExhaustedError`, …). */
  error: z.string(),
  /** `configuration`: a person must fix the deployment; `transient`: it may pass; `other`. */
  failure_class: z.enum(FAILURE_CLASSES),
  /** Why, cut to {@link FAILURE_REASON_CHARS} code points. */
  reason: z.string(),
  /** The message's `ApproximateReceiveCount` when it last failed: attempts so far. */
  attempts: z.number().int().nonnegative(),
  /** Failures recorded for this key. */
  failures: z.number().int().positive(),
  /** ISO-8601 times of the first and the last failure recorded. */
  first_failed_at: z.string(),
  last_failed_at: z.string(),
  /** Epoch seconds after which DynamoDB's TTL removes the record. */
  expires_at: z.number().int(),
});

/** A failure record as stored. */
export type FailureRecord = z.infer<typeof FailureRecordSchema>;

/** A failure's class. */
export type FailureClass = (typeof FAILURE_CLASSES)[number];
