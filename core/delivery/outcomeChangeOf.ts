import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import {
  type StoredOutcome,
  StoredOutcomeSchema,
  type StoredOutcomeStatus,
} from "../../contract/outcome/OutcomeSchema.js";

/** A DynamoDB stream record as both the local stream reader and the outcomes bus carry it. */
export interface OutcomeStreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, unknown>; OldImage?: Record<string, unknown> };
}

/** One change of an outcome worth a delivery. */
export interface OutcomeChange {
  /** The outcome after the change. */
  outcome: StoredOutcome;
  /** Its status before the change; `null` when it was first recorded. */
  previousStatus: StoredOutcomeStatus | null;
}

/**
 * The change a stream record of the outcomes table makes, when it is one a receiver is told of:
 * an outcome recorded (INSERT), its status changed, the outcome replaced by a new decision (a
 * redecide: `created_at` changed), or a person's review of a `reviewed` outcome amended (its
 * `review.at` changed). Undefined for everything else: removals, records that are no outcome
 * (failure and shadow records carry `record_kind`), and modifications that leave the status as it
 * was (a partial review, a conflicting arrival recorded).
 */
export function outcomeChangeOf(record: OutcomeStreamRecord): OutcomeChange | undefined {
  if (record.eventName !== "INSERT" && record.eventName !== "MODIFY") return undefined;
  const image = record.dynamodb?.NewImage;
  if (image === undefined || "record_kind" in image) return undefined;
  const parsed = StoredOutcomeSchema.safeParse(unmarshall(image as Record<string, AttributeValue>));
  if (!parsed.success) return undefined;
  const outcome = parsed.data;
  const oldImage = record.dynamodb?.OldImage;
  if (record.eventName === "INSERT" || oldImage === undefined) return { outcome, previousStatus: null };
  const before = unmarshall(oldImage as Record<string, AttributeValue>) as Partial<StoredOutcome>;
  const previousStatus = StoredOutcomeSchema.shape.status.safeParse(before.status);
  if (!previousStatus.success) return { outcome, previousStatus: null };
  const changed =
    previousStatus.data !== outcome.status ||
    before.created_at !== outcome.created_at ||
    (outcome.status === "reviewed" && before.review?.at !== outcome.review?.at);
  return changed ? { outcome, previousStatus: previousStatus.data } : undefined;
}
