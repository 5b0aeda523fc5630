import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import type { WorkloadItem } from "./buildChaosWorkload.js";
import type { DeadLetter } from "./readChaosEvidence.js";

/** A message the run sent: SQS's message id and the item it carries. */
export interface SentMessage {
  messageId: string;
  item: number;
}

/** What the checker reads: the items, what was sent, the table, the DLQ and the function's failure logs. */
export interface ChaosEvidence {
  items: readonly WorkloadItem[];
  sent: readonly SentMessage[];
  /** Every item of the outcomes table (Scan). */
  rows: readonly Record<string, unknown>[];
  deadLetters: readonly DeadLetter[];
  /** The last reason the decide function gave a record back to SQS, by message id. */
  failureReasons: ReadonlyMap<string, string>;
  /**
   * Messages the work queue still held when the evidence was read (visible, in flight and
   * delayed, as `queueDepth` counts them). An item with neither outcome nor DLQ message may still
   * be one of them: it is "not drained" then, and "lost" only once the queue is empty.
   */
  queueRemaining: number;
}

/** The counts a chaos run prints. */
export interface ChaosCounts {
  messages: number;
  items: number;
  valid: number;
  poison: number;
  /** Valid items with an outcome the policy gave (decided, fallback, overridden, or a rule's reject). */
  decided: number;
  /** Outcomes by status. */
  statuses: Record<string, number>;
  /** Items whose outcome is `rejected`. */
  rejected: number;
  /** Poison messages `rejected` with a reason. */
  poisonRejected: number;
  /** Items without an outcome, in the DLQ with a reason. */
  deadLettered: number;
  /** DLQ copies of items that have their outcome (a redelivered copy; redriving it finds the outcome). */
  redundantDeadLetters: number;
  /**
   * Items with no outcome and not in the DLQ that cannot be in the work queue: all of them when
   * the queue is empty; otherwise those beyond the messages it still holds (each queued item needs
   * at least one message there).
   */
  lost: number;
  /** Items with no outcome and not in the DLQ that may still be in the work queue (queued, not lost). */
  notDrained: number;
  /** Messages the work queue still held when the evidence was read. */
  queueRemaining: number;
  /** Outcomes beyond the first for one item (its own key twice, or a second key for the same message). */
  duplicates: number;
  /** Outcomes that do not belong to what was sent for their key (another state, message or status). */
  conflicting: number;
  /** Outcomes for nothing the run sent. */
  unexpected: number;
}

/** One broken promise, with what the checker saw. */
export interface ChaosViolation {
  kind:
    | "lost"
    | "not-drained"
    | "duplicate"
    | "conflicting"
    | "unexpected"
    | "poison-not-rejected"
    | "dead-lettered-without-reason"
    | "unknown-dead-letter";
  detail: string;
}

/** The checker's verdict. */
export interface ChaosCheck {
  ok: boolean;
  counts: ChaosCounts;
  /** At most 50, the first found. */
  violations: ChaosViolation[];
  violationCount: number;
}

const POLICY_STATUSES = new Set(["decided", "fallback", "overridden"]);
const MAX_LISTED = 50;

/**
 * The invariant of a chaos run, checked from the table and the DLQ alone: every work item ends
 * exactly once — one outcome under its key (or, for a body whose key cannot be read, under
 * `_unparsed` with its message id), or no outcome and a DLQ message with a reason — so 0 lost
 * (and 0 not drained: an item still in the work queue has not ended either, but it is not lost),
 * 0 duplicate or conflicting outcomes, 0 outcomes nobody sent, and every poison message
 * `rejected` with its reason. A valid item's outcome must carry its state's SHA-256, come from one
 * of its own messages, and have a status the policy gives (a `rejected` one only by a rule's reject).
 */
export function checkChaosInvariant(evidence: ChaosEvidence): ChaosCheck {
  const violations: ChaosViolation[] = [];
  let violationCount = 0;
  const violate = (kind: ChaosViolation["kind"], detail: string): void => {
    violationCount += 1;
    if (violations.length < MAX_LISTED) violations.push({ kind, detail });
  };
  const counts: ChaosCounts = {
    messages: evidence.sent.length,
    items: 0,
    valid: 0,
    poison: 0,
    decided: 0,
    statuses: {},
    rejected: 0,
    poisonRejected: 0,
    deadLettered: 0,
    redundantDeadLetters: 0,
    lost: 0,
    notDrained: 0,
    queueRemaining: evidence.queueRemaining,
    duplicates: 0,
    conflicting: 0,
    unexpected: 0,
  };

  const messagesOf = new Map<number, string[]>();
  const itemOfMessage = new Map<string, number>();
  for (const { messageId, item } of evidence.sent) {
    messagesOf.set(item, [...(messagesOf.get(item) ?? []), messageId]);
    itemOfMessage.set(messageId, item);
  }
  const keyOf = new Map<number, string>();
  const itemOfKey = new Map<string, number>();
  for (const [index, item] of evidence.items.entries()) {
    const messages = messagesOf.get(index);
    if (messages === undefined) continue;
    const key = item.key
      ? keyText(item.key.policy, item.key.id)
      : keyText(UNPARSED_POLICY, messages[0] ?? "");
    keyOf.set(index, key);
    itemOfKey.set(key, index);
  }

  const rowsOf = new Map<number, Record<string, unknown>[]>();
  for (const row of evidence.rows) {
    const key = keyText(String(row.policy), String(row.id));
    const owner = itemOfKey.get(key);
    if (owner !== undefined) {
      rowsOf.set(owner, [...(rowsOf.get(owner) ?? []), row]);
      continue;
    }
    const messageId = sourceMessageId(row);
    const sender = messageId === undefined ? undefined : itemOfMessage.get(messageId);
    if (sender !== undefined) {
      counts.duplicates += 1;
      violate(
        "duplicate",
        `${describeRow(row)} was written for message ${messageId} of ${keyOf.get(sender)}`,
      );
    } else {
      counts.unexpected += 1;
      violate("unexpected", `${describeRow(row)} belongs to nothing the run sent`);
    }
  }

  const queueRemaining = counts.queueRemaining;
  if (!(Number.isInteger(queueRemaining) && queueRemaining >= 0)) {
    throw new RangeError(`queueRemaining must be a non-negative integer, got ${queueRemaining}`);
  }
  /** Items with neither outcome nor DLQ message: queued or lost, told apart once all are known. */
  const unended: string[] = [];

  const deadLettersOf = new Map<number, DeadLetter[]>();
  for (const letter of evidence.deadLetters) {
    // A copy re-queued for capacity belongs to the item of the message it descends from.
    const owner = itemOfMessage.get(letter.firstMessageId ?? letter.messageId);
    if (owner === undefined) {
      violate("unknown-dead-letter", `DLQ message ${letter.messageId} was not sent by the run`);
      continue;
    }
    deadLettersOf.set(owner, [...(deadLettersOf.get(owner) ?? []), letter]);
  }

  for (const [index, key] of keyOf.entries()) {
    const item = evidence.items[index] as WorkloadItem;
    const messages = messagesOf.get(index) ?? [];
    counts.items += 1;
    if (item.kind === "valid") counts.valid += 1;
    else counts.poison += 1;
    const rows = rowsOf.get(index) ?? [];
    const letters = deadLettersOf.get(index) ?? [];
    const row = rows[0];
    if (rows.length > 1) {
      counts.duplicates += rows.length - 1;
      violate("duplicate", `${rows.length} outcomes for ${printable(key)}`);
    }
    if (row === undefined) {
      if (letters.length === 0) {
        unended.push(`${printable(key)} (${item.origin})`);
        continue;
      }
      counts.deadLettered += 1;
      if (item.kind === "poison") {
        violate(
          "poison-not-rejected",
          `poison ${item.origin} ${printable(key)} was dead-lettered, not rejected`,
        );
      }
      for (const letter of letters) {
        if (!evidence.failureReasons.has(letter.messageId)) {
          violate("dead-lettered-without-reason", `DLQ message ${letter.messageId} of ${printable(key)}`);
        }
      }
      continue;
    }
    counts.redundantDeadLetters += letters.length;
    const status = String(row.status);
    counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
    if (status === "rejected") counts.rejected += 1;
    const conflict = (why: string): void => {
      counts.conflicting += 1;
      violate("conflicting", `${printable(key)}: ${why}`);
    };
    const messageId = sourceMessageId(row);
    if (messageId === undefined || !messages.includes(messageId)) {
      conflict(`its outcome came from message ${messageId ?? "(none)"}, not one sent for it`);
      continue;
    }
    if (item.kind === "poison") {
      if (status === "rejected" && typeof row.reason === "string" && row.reason !== "")
        counts.poisonRejected += 1;
      else
        violate(
          "poison-not-rejected",
          `poison ${item.origin} ${printable(key)} ended ${status} without a reason`,
        );
      continue;
    }
    if (row.state_sha256 !== item.stateSha256) {
      conflict(`its outcome is for state ${String(row.state_sha256)}, the item's is ${item.stateSha256}`);
      continue;
    }
    if (POLICY_STATUSES.has(status) || (status === "rejected" && rejectedByRule(row))) counts.decided += 1;
    else conflict(`a valid item ended ${status}: ${String(row.reason ?? "no reason")}`);
  }
  if (queueRemaining === 0) {
    counts.lost = unended.length;
    for (const item of unended)
      violate("lost", `${item} has no outcome, is not in the DLQ, and the queue is empty`);
  } else {
    // Which items the queued messages carry is not known without receiving them (that would add
    // receives), so only the count tells: beyond the messages still queued, items are lost.
    counts.notDrained = Math.min(unended.length, queueRemaining);
    counts.lost = unended.length - counts.notDrained;
    for (const item of unended) {
      violate(
        "not-drained",
        `${item} has no outcome and is not in the DLQ; the work queue still holds ${queueRemaining} message(s)`,
      );
    }
    if (counts.lost > 0) {
      violate(
        "lost",
        `${unended.length} items have no outcome and are not in the DLQ, but the work queue holds only ${queueRemaining} message(s): at least ${counts.lost} are lost`,
      );
    }
  }
  const ok =
    violationCount === 0 &&
    counts.lost === 0 &&
    counts.notDrained === 0 &&
    counts.duplicates === 0 &&
    counts.conflicting === 0 &&
    counts.unexpected === 0;
  return { ok, counts, violations, violationCount };
}

function keyText(policy: string, id: string): string {
  return `${policy}\u0000${id}`;
}

function printable(key: string): string {
  return key.replace("\u0000", "/");
}

function sourceMessageId(row: Record<string, unknown>): string | undefined {
  const source = row.source as { message_id?: unknown } | undefined;
  return typeof source?.message_id === "string" ? source.message_id : undefined;
}

function rejectedByRule(row: Record<string, unknown>): boolean {
  const fired = row.rules_fired;
  return Array.isArray(fired) && fired.some((rule) => (rule as { effect?: unknown }).effect === "reject");
}

function describeRow(row: Record<string, unknown>): string {
  return `outcome ${String(row.policy)}/${String(row.id)} (${String(row.status)})`;
}
