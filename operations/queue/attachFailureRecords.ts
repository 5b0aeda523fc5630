import type { FailureRecord } from "../../contract/failures/FailureRecordSchema.js";
import type { DeadLetter } from "./listDeadLetters.js";

/** Where failure records are read from (a `FailureRecordStore`). */
export interface FailureRecordLookup {
  readonly tableName: string;
  byMessage(messageId: string): Promise<FailureRecord | undefined>;
  byItem(policy: string, id: string): Promise<FailureRecord | undefined>;
}

/** What {@link attachFailureRecords} did. */
export interface AttachedFailures {
  letters: DeadLetter[];
  /** Why the records could not be read (the table missing, no access), when they could not. */
  unreadable?: string;
}

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
  const out: DeadLetter[] = [];
  let unreadable: string | undefined;
  for (const letter of letters) {
    if (unreadable !== undefined) {
      out.push(letter);
      continue;
    }
    try {
      const { body } = letter;
      const record =
        (await lookup.byMessage(letter.messageId)) ??
        (body.kind === "item" && body.policy !== undefined && body.id !== undefined
          ? await lookup.byItem(body.policy, body.id)
          : undefined);
      out.push(record === undefined ? letter : withFailure(letter, record));
    } catch (error) {
      unreadable = `the failure records in ${lookup.tableName} could not be read (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`;
      out.push(letter);
    }
  }
  return unreadable === undefined ? { letters: out } : { letters: out, unreadable };
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
