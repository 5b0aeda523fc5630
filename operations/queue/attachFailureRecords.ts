import type { FailureRecord } from "../../contract/failures/FailureRecordSchema.js";
import { type AttachedLetters, attachToLetters } from "./attachToLetters.js";
import type { DeadLetter } from "./listDeadLetters.js";

/** Where failure records are read from (a `FailureRecordStore`). */
export interface FailureRecordLookup {
  readonly tableName: string;
  byMessage(messageId: string): Promise<FailureRecord | undefined>;
  byItem(policy: string, id: string): Promise<FailureRecord | undefined>;
}

/** What {@link attachFailureRecords} did. */
export type AttachedFailures = AttachedLetters;

/**
 * Gives each dead letter the failure record the decide function wrote when it last gave the
 * message back: by its message id, else by the policy and id its body names. A letter whose
 * message carries no reason attribute gets the record's reason as `reason`. Reads one message at a
 * time; the first read that fails stops the lookups (the listing stands without them) and is told
 * in `unreadable`.
 */
export async function attachFailureRecords(
  letters: readonly DeadLetter[],
  lookup: FailureRecordLookup,
): Promise<AttachedFailures> {
  return attachToLetters(letters, `the failure records in ${lookup.tableName}`, async (letter) => {
    const { body } = letter;
    const record =
      (await lookup.byMessage(letter.messageId)) ??
      (body.kind === "item" && body.policy !== undefined && body.id !== undefined
        ? await lookup.byItem(body.policy, body.id)
        : undefined);
    return record === undefined ? letter : withFailure(letter, record);
  });
}

function withFailure(letter: DeadLetter, record: FailureRecord): DeadLetter {
  return {
    ...letter,
    reason: letter.reason ?? record.reason,
    failure: {
      reason: record.reason,
      error: record.error,
      failureClass: record.failure_class,
      attempts: record.attempts,
      firstFailedAt: record.first_failed_at,
      lastFailedAt: record.last_failed_at,
    },
  };
}
