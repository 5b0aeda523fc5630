import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import type { WorkloadItem } from "./buildChaosWorkload.js";
import type { DeadLetter } from "./readChaosEvidence.js";

/** A message the run sent: SQS's message id, the item it carries and the lane whose queue took it. */
export interface SentMessage {
  messageId: string;
  item: number;
  /** Default `interactive`: the lane of the stack's `queueUrl`, where a one-lane run sends. */
  lane?: Lane;
}

/** What the checker reads: the items, what was sent, the table, the DLQ and the function's failure logs. */
export interface ChaosEvidence {
  items: readonly WorkloadItem[];
  sent: readonly SentMessage[];
  /** Every item of the outcomes table (Scan). */
  rows: readonly Record<string, unknown>[];
  /** Every lane's DLQ, each message with the lane of the DLQ it was read from. */
  deadLetters: readonly DeadLetter[];
  /**
   * The last reason the decide function gave a record back to SQS, by message id, as
   * `"<error class>: <message>"`.
   */
  failureReasons: ReadonlyMap<string, string>;
  /**
   * Messages each lane's work queue still held when the evidence was read (visible, in flight and
   * delayed, as `queueDepth` counts them). An item with neither outcome nor DLQ message may still
   * be one of them: it is "not drained" then, and "lost" only once its lanes' queues are empty.
   * A number: the interactive lane's queue, where a one-lane run sends (its messages name no lane).
   */
  queueRemaining: Record<Lane, number> | number;
}

/** One lane's share of the counts: by the lane of the message that ended the item (its outcome's, or its DLQ's). */
export interface LaneCounts {
  /** Messages sent to the lane's queue. */
  messages: number;
  /** Items whose first message went to this lane. */
  items: number;
  /** Poison items whose message went to this lane. */
  poison: number;
  /** Valid items decided from a message of this lane. */
  decided: number;
  /** Poison messages of this lane `rejected` with a reason. */
  poisonRejected: number;
  /** Items without an outcome, found in this lane's DLQ. */
  deadLettered: number;
  /** This lane's DLQ messages whose last failure was only the pipeline being busy (must be 0). */
  deadLetteredBusy: number;
  /** This lane's DLQ messages sent to the other lane (must be 0: a message dead-letters in its own lane). */
  deadLetteredElsewhere: number;
  /** Items lost whose first message went to this lane. */
  lost: number;
  /** Items not ended that this lane's queue may still hold. */
  notDrained: number;
  /** Messages the lane's queue still held. */
  queueRemaining: number;
  /** Outcomes beyond the first for one item, written from a message of this lane. */
  duplicates: number;
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
  /** DLQ messages whose last failure was only the pipeline being busy (all lanes; must be 0). */
  deadLetteredBusy: number;
  /** DLQ messages found in another lane's DLQ than the one their message was sent to (must be 0). */
  deadLetteredElsewhere: number;
  /** Items sent in both lanes (a message in each queue), and how many of them ended exactly once. */
  crossLane: { items: number; endedOnce: number };
  /** The counts per lane. */
  lanes: Record<Lane, LaneCounts>;
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
    | "dead-lettered-busy"
    | "dead-lettered-in-other-lane"
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

/** The lane of a message or DLQ copy that names none (a one-lane run's, on the stack's `queueUrl`). */
const DEFAULT_LANE: Lane = "interactive";
const POLICY_STATUSES = new Set(["decided", "fallback", "overridden"]);
const MAX_LISTED = 50;

/**
 * The invariant of a chaos run, checked from the table and the lanes' DLQs alone: every work item
 * ends exactly once, whatever lane (or lanes) it travelled — one outcome under its key (or, for a
 * body whose key cannot be read, under `_unparsed` with its message id), or no outcome and a DLQ
 * message with a reason — so 0 lost (and 0 not drained: an item still in a work queue has not
 * ended either, but it is not lost), 0 duplicate or conflicting outcomes (an item sent in both
 * lanes too), 0 outcomes nobody sent, and every poison message `rejected` with its reason. A valid
 * item's outcome must carry its state's SHA-256, come from one of its own messages, and have a
 * status the policy gives (a `rejected` one only by a rule's reject). Every DLQ message is in the
 * DLQ of the lane it was sent to, and none is there only because the pipeline was busy (such a
 * record is re-queued, its receive count kept for real failures). The counts are also given per lane.
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
    queueRemaining: 0,
    duplicates: 0,
    conflicting: 0,
    unexpected: 0,
    deadLetteredBusy: 0,
    deadLetteredElsewhere: 0,
    crossLane: { items: 0, endedOnce: 0 },
    lanes: { interactive: emptyLaneCounts(), bulk: emptyLaneCounts() },
  };
  const queueRemaining: Record<Lane, number> =
    typeof evidence.queueRemaining === "number"
      ? { interactive: evidence.queueRemaining, bulk: 0 }
      : evidence.queueRemaining;
  for (const lane of LANES) {
    const remaining = queueRemaining[lane];
    if (!(Number.isInteger(remaining) && remaining >= 0)) {
      throw new RangeError(`queueRemaining.${lane} must be a non-negative integer, got ${remaining}`);
    }
    counts.lanes[lane].queueRemaining = remaining;
    counts.queueRemaining += remaining;
  }

  const messagesOf = new Map<number, string[]>();
  const itemOfMessage = new Map<string, number>();
  const laneOfMessage = new Map<string, Lane>();
  for (const { messageId, item, lane = DEFAULT_LANE } of evidence.sent) {
    messagesOf.set(item, [...(messagesOf.get(item) ?? []), messageId]);
    itemOfMessage.set(messageId, item);
    laneOfMessage.set(messageId, lane);
    counts.lanes[lane].messages += 1;
  }
  const lanesOf = (index: number): Lane[] => [
    ...new Set((messagesOf.get(index) ?? []).map((id) => laneOfMessage.get(id) as Lane)),
  ];
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
      counts.lanes[laneOfMessage.get(messageId as string) as Lane].duplicates += 1;
      violate(
        "duplicate",
        `${describeRow(row)} was written for message ${messageId} of ${keyOf.get(sender)}`,
      );
    } else {
      counts.unexpected += 1;
      violate("unexpected", `${describeRow(row)} belongs to nothing the run sent`);
    }
  }

  /** Items with neither outcome nor DLQ message: queued or lost, told apart once all are known. */
  const unended: { text: string; lanes: Lane[] }[] = [];

  const deadLettersOf = new Map<number, DeadLetter[]>();
  for (const letter of evidence.deadLetters) {
    // A copy re-queued for capacity belongs to the item of the message it descends from, and was
    // sent to that message's queue.
    const origin = letter.firstMessageId ?? letter.messageId;
    const owner = itemOfMessage.get(origin);
    if (owner === undefined) {
      violate("unknown-dead-letter", `DLQ message ${letter.messageId} was not sent by the run`);
      continue;
    }
    deadLettersOf.set(owner, [...(deadLettersOf.get(owner) ?? []), letter]);
    const sentIn = laneOfMessage.get(origin) as Lane;
    const foundIn = letter.lane ?? DEFAULT_LANE;
    if (sentIn !== foundIn) {
      counts.deadLetteredElsewhere += 1;
      counts.lanes[foundIn].deadLetteredElsewhere += 1;
      violate(
        "dead-lettered-in-other-lane",
        `DLQ message ${letter.messageId} was sent to the ${sentIn} lane but is in the ${foundIn} lane's DLQ`,
      );
    }
    const reason = evidence.failureReasons.get(letter.messageId);
    if (reason !== undefined && isBusyReason(reason)) {
      counts.deadLetteredBusy += 1;
      counts.lanes[foundIn].deadLetteredBusy += 1;
      violate(
        "dead-lettered-busy",
        `DLQ message ${letter.messageId} (${foundIn}) was dead-lettered for being busy: ${reason}`,
      );
    }
  }

  for (const [index, key] of keyOf.entries()) {
    const item = evidence.items[index] as WorkloadItem;
    const messages = messagesOf.get(index) ?? [];
    const lanes = lanesOf(index);
    const home = counts.lanes[laneOfMessage.get(messages[0] ?? "") as Lane];
    counts.items += 1;
    home.items += 1;
    if (item.kind === "valid") counts.valid += 1;
    else {
      counts.poison += 1;
      home.poison += 1;
    }
    const rows = rowsOf.get(index) ?? [];
    const letters = deadLettersOf.get(index) ?? [];
    const row = rows[0];
    if (lanes.length > 1) {
      counts.crossLane.items += 1;
      if (rows.length + (rows.length === 0 && letters.length > 0 ? 1 : 0) === 1)
        counts.crossLane.endedOnce += 1;
    }
    if (rows.length > 1) {
      counts.duplicates += rows.length - 1;
      for (const extra of rows.slice(1)) {
        const lane = laneOfMessage.get(sourceMessageId(extra) ?? "");
        (lane === undefined ? home : counts.lanes[lane]).duplicates += 1;
      }
      violate(
        "duplicate",
        `${rows.length} outcomes for ${printable(key)}${lanes.length > 1 ? " (sent in both lanes)" : ""}`,
      );
    }
    if (row === undefined) {
      if (letters.length === 0) {
        unended.push({ text: `${printable(key)} (${item.origin})`, lanes });
        continue;
      }
      counts.deadLettered += 1;
      counts.lanes[(letters[0] as DeadLetter).lane ?? DEFAULT_LANE].deadLettered += 1;
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
    const endedIn = counts.lanes[laneOfMessage.get(messageId) as Lane];
    if (item.kind === "poison") {
      if (status === "rejected" && typeof row.reason === "string" && row.reason !== "") {
        counts.poisonRejected += 1;
        endedIn.poisonRejected += 1;
      } else
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
    if (POLICY_STATUSES.has(status) || (status === "rejected" && rejectedByRule(row))) {
      counts.decided += 1;
      endedIn.decided += 1;
    } else conflict(`a valid item ended ${status}: ${String(row.reason ?? "no reason")}`);
  }
  // Which items the queued messages carry is not known without receiving them (that would add
  // receives), so only the counts tell: each message still queued in a lane may hold one unended
  // item that travelled in it; beyond those, items are lost. Items of one lane take their lane's
  // places first, then items sent in both lanes take what is left in either (the most that can be
  // queued: with two lanes this order is optimal).
  const places = { ...queueRemaining };
  const byLaneCount = [...unended].sort((a, b) => a.lanes.length - b.lanes.length);
  const lostItems: { text: string; lanes: Lane[] }[] = [];
  for (const item of byLaneCount) {
    const lane = item.lanes.find((each) => places[each] > 0);
    if (lane === undefined) {
      lostItems.push(item);
      continue;
    }
    places[lane] -= 1;
    counts.notDrained += 1;
    counts.lanes[lane].notDrained += 1;
    violate(
      "not-drained",
      `${item.text} has no outcome and is not in the DLQ; the ${lane} lane's work queue still holds ${queueRemaining[lane]} message(s)`,
    );
  }
  for (const item of lostItems) {
    counts.lost += 1;
    counts.lanes[item.lanes[0] as Lane].lost += 1;
    const queued = item.lanes.map((lane) => `${lane} ${queueRemaining[lane]}`).join(", ");
    violate(
      "lost",
      `${item.text} has no outcome, is not in the DLQ, and its lanes' work queues (${item.lanes.join(" and ")}) hold no message it could be in (queued: ${queued}, the others taken by unended items)`,
    );
  }
  const ok =
    violationCount === 0 &&
    counts.lost === 0 &&
    counts.notDrained === 0 &&
    counts.duplicates === 0 &&
    counts.conflicting === 0 &&
    counts.unexpected === 0 &&
    counts.deadLetteredBusy === 0 &&
    counts.deadLetteredElsewhere === 0;
  return { ok, counts, violations, violationCount };
}

/**
 * Whether a failure reason logged by the decide function (`"<error class>: <message>"`) says only
 * that the pipeline was busy — the log-side reading of the function's own `isBusyFailure`: no call
 * could start or end before the deadline (`EndpointBusyError`, `DeadlineExceededError`), or the
 * endpoint answered at capacity (the container's 503/429, SageMaker's throttling), possibly after
 * the retries (`RetriesExhaustedError: … <that>`).
 */
export function isBusyReason(reason: string): boolean {
  if (/^(EndpointBusyError|DeadlineExceededError)\b/.test(reason)) return true;
  return /ModelError \(model status (503|429)\)|ThrottlingException|\(HTTP 429\)/.test(reason);
}

function emptyLaneCounts(): LaneCounts {
  return {
    messages: 0,
    items: 0,
    poison: 0,
    decided: 0,
    poisonRejected: 0,
    deadLettered: 0,
    deadLetteredBusy: 0,
    deadLetteredElsewhere: 0,
    lost: 0,
    notDrained: 0,
    queueRemaining: 0,
    duplicates: 0,
  };
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
