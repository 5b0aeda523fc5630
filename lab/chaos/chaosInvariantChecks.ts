import type { Lane } from "../../contract/lanes/lanes.js";
import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import type { PoisonKind, WorkloadItem } from "./buildChaosWorkload.js";
import type { ChaosTally } from "./ChaosTally.js";
import type { ChaosEvidence, SentMessage } from "./chaosCheckTypes.js";
import { isBusyReason } from "./isBusyReason.js";
import type { DeadLetter } from "./readChaosEvidence.js";

/** The lane of a message or DLQ copy that names none (a one-lane run's, on the stack's `queueUrl`). */
const DEFAULT_LANE: Lane = "interactive";
const POLICY_STATUSES = new Set(["decided", "fallback", "overridden"]);

/** One item of the outcomes table, as the Scan gives it. */
type OutcomeRow = Record<string, unknown>;

/** What the run sent, indexed both ways: by item and by message, and by the item's outcome key. */
export interface SentIndex {
  /** Each item's message ids, in sending order. */
  messagesOf: ReadonlyMap<number, readonly string[]>;
  itemOfMessage: ReadonlyMap<string, number>;
  laneOfMessage: ReadonlyMap<string, Lane>;
  /** The key (`policy`, NUL, `id`) each item sent must end under, in the items' order. */
  keyOf: ReadonlyMap<number, string>;
  itemOfKey: ReadonlyMap<string, number>;
}

/** One item sent, with the evidence of how it ended. */
export interface ItemEvidence {
  item: WorkloadItem;
  /** Its key as {@link SentIndex.keyOf} gives it. */
  key: string;
  /** Its message ids, in sending order (at least one). */
  messages: readonly string[];
  /** The lanes its messages travelled. */
  lanes: Lane[];
  /** The lane of its first message. */
  home: Lane;
  /** Its outcomes: under its key, in table order. */
  outcomes: readonly OutcomeRow[];
  /** The DLQ messages that descend from its messages. */
  deadLetters: readonly DeadLetter[];
}

/** An item with neither outcome nor DLQ message: queued or lost, told apart once all are known. */
export interface UnendedItem {
  text: string;
  lanes: Lane[];
}

/**
 * Indexes what the run sent, and counts each lane's messages. An item that has a body whose key
 * cannot be read ends under `_unparsed` with its first message's id.
 *
 * Also the evidence's own consistency: every item was sent (`not-sent`: an item with no message
 * cannot end, and would otherwise not be looked at), every message names an item of the run
 * (`unknown-item`), and no two items share a key (`ambiguous-key`: an outcome under it could not
 * be told to one of them; the first keeps it).
 */
export function indexSent(
  items: readonly WorkloadItem[],
  sent: readonly SentMessage[],
  tally: ChaosTally,
): SentIndex {
  const messagesOf = new Map<number, string[]>();
  const itemOfMessage = new Map<string, number>();
  const laneOfMessage = new Map<string, Lane>();
  for (const { messageId, item, lane = DEFAULT_LANE } of sent) {
    if (items[item] === undefined) {
      tally.counts.unknownItems += 1;
      tally.violate("unknown-item", `message ${messageId} names item ${item}, which the run does not have`);
    }
    messagesOf.set(item, [...(messagesOf.get(item) ?? []), messageId]);
    itemOfMessage.set(messageId, item);
    laneOfMessage.set(messageId, lane);
    tally.lane(lane).messages += 1;
  }
  const keyOf = new Map<number, string>();
  const itemOfKey = new Map<string, number>();
  for (const [index, item] of items.entries()) {
    const messages = messagesOf.get(index);
    if (messages === undefined) {
      const named = item.key ? ` ${item.key.policy}/${item.key.id}` : "";
      tally.counts.notSent += 1;
      tally.violate("not-sent", `item ${index}${named} (${item.origin}) has no message sent: it cannot end`);
      continue;
    }
    const key = item.key
      ? keyText(item.key.policy, item.key.id)
      : keyText(UNPARSED_POLICY, messages[0] ?? "");
    keyOf.set(index, key);
    const first = itemOfKey.get(key);
    if (first !== undefined) {
      tally.counts.ambiguousKeys += 1;
      tally.violate(
        "ambiguous-key",
        `items ${first} (${items[first]?.origin}) and ${index} (${item.origin}) share the key ${printable(key)}: an outcome under it cannot be told to one of them`,
      );
      continue;
    }
    itemOfKey.set(key, index);
  }
  return { messagesOf, itemOfMessage, laneOfMessage, keyOf, itemOfKey };
}

/**
 * Every outcome belongs to an item the run sent, under that item's key: one under another key for
 * a message the run sent is a duplicate (`duplicate`), one for nothing sent — or for a message that
 * names an item the run does not have (`unknown-item` says so too) — is `unexpected`.
 * Returns each item's outcomes under its own key, in table order.
 */
export function checkOutcomesWereSent(
  rows: readonly OutcomeRow[],
  sent: SentIndex,
  tally: ChaosTally,
): Map<number, OutcomeRow[]> {
  const outcomesOf = new Map<number, OutcomeRow[]>();
  for (const row of rows) {
    const owner = sent.itemOfKey.get(keyText(String(row.policy), String(row.id)));
    if (owner !== undefined) {
      outcomesOf.set(owner, [...(outcomesOf.get(owner) ?? []), row]);
      continue;
    }
    const messageId = sourceMessageId(row);
    const sender = messageId === undefined ? undefined : sent.itemOfMessage.get(messageId);
    const senderKey = sender === undefined ? undefined : sent.keyOf.get(sender);
    if (senderKey !== undefined) {
      tally.counts.duplicates += 1;
      tally.lane(sent.laneOfMessage.get(messageId as string) as Lane).duplicates += 1;
      tally.violate(
        "duplicate",
        `${describeRow(row)} was written for message ${messageId} of ${printable(senderKey)}`,
      );
    } else if (sender !== undefined) {
      tally.counts.unexpected += 1;
      tally.violate(
        "unexpected",
        `${describeRow(row)} was written for message ${messageId}, which names item ${sender}: no item of the run ends under that message`,
      );
    } else {
      tally.counts.unexpected += 1;
      tally.violate("unexpected", `${describeRow(row)} belongs to nothing the run sent`);
    }
  }
  return outcomesOf;
}

/**
 * Every DLQ message descends from a message the run sent (`unknown-dead-letter`), is in the DLQ of
 * the lane that message was sent to ({@link checkDeadLetterInOwnLane}) and is not there only for
 * being busy ({@link checkDeadLetterNotBusy}). Returns each item's DLQ messages, in DLQ order.
 */
export function checkDeadLetters(
  evidence: Pick<ChaosEvidence, "deadLetters" | "failureReasons" | "maxReceiveCount">,
  sent: SentIndex,
  tally: ChaosTally,
): Map<number, DeadLetter[]> {
  const deadLettersOf = new Map<number, DeadLetter[]>();
  for (const letter of evidence.deadLetters) {
    // A copy re-queued for capacity belongs to the item of the message it descends from, and was
    // sent to that message's queue.
    const origin = letter.firstMessageId ?? letter.messageId;
    const owner = sent.itemOfMessage.get(origin);
    if (owner === undefined) {
      tally.counts.unknownDeadLetters += 1;
      tally.violate("unknown-dead-letter", `DLQ message ${letter.messageId} was not sent by the run`);
      continue;
    }
    deadLettersOf.set(owner, [...(deadLettersOf.get(owner) ?? []), letter]);
    checkDeadLetterInOwnLane(letter, sent.laneOfMessage.get(origin) as Lane, tally);
    checkDeadLetterNotBusy(letter, evidence.failureReasons.get(letter.messageId), tally);
    checkDeadLetterNotEarly(letter, evidence.maxReceiveCount, tally);
  }
  return deadLettersOf;
}

/**
 * A DLQ message was received at least `maxReceiveCount` times (`dead-lettered-early`): SQS moves
 * a message only after that many receives, so fewer says it was moved (or dropped there) by
 * something else. Unchecked without `maxReceiveCount`.
 */
export function checkDeadLetterNotEarly(
  letter: DeadLetter,
  maxReceiveCount: number | undefined,
  tally: ChaosTally,
): void {
  if (maxReceiveCount === undefined || letter.receiveCount >= maxReceiveCount) return;
  tally.counts.deadLetteredEarly += 1;
  tally.violate(
    "dead-lettered-early",
    `DLQ message ${letter.messageId} was received ${letter.receiveCount} time(s), fewer than the maxReceiveCount of ${maxReceiveCount}`,
  );
}

/** A DLQ message is in the DLQ of the lane its message was sent to (`dead-lettered-in-other-lane`). */
export function checkDeadLetterInOwnLane(letter: DeadLetter, sentIn: Lane, tally: ChaosTally): void {
  const foundIn = letter.lane ?? DEFAULT_LANE;
  if (sentIn === foundIn) return;
  tally.counts.deadLetteredElsewhere += 1;
  tally.lane(foundIn).deadLetteredElsewhere += 1;
  tally.violate(
    "dead-lettered-in-other-lane",
    `DLQ message ${letter.messageId} was sent to the ${sentIn} lane but is in the ${foundIn} lane's DLQ`,
  );
}

/**
 * A DLQ message's last failure was not only the pipeline being busy (`dead-lettered-busy`): such a
 * record is re-queued, its receive count kept for real failures.
 */
export function checkDeadLetterNotBusy(
  letter: DeadLetter,
  reason: string | undefined,
  tally: ChaosTally,
): void {
  if (reason === undefined || !isBusyReason(reason)) return;
  const foundIn = letter.lane ?? DEFAULT_LANE;
  tally.counts.deadLetteredBusy += 1;
  tally.lane(foundIn).deadLetteredBusy += 1;
  tally.violate(
    "dead-lettered-busy",
    `DLQ message ${letter.messageId} (${foundIn}) was dead-lettered for being busy: ${reason}`,
  );
}

/** Gathers one item's evidence: its messages and their lanes, its outcomes and its DLQ messages. */
export function itemEvidence(
  index: number,
  item: WorkloadItem,
  sent: SentIndex,
  outcomesOf: ReadonlyMap<number, readonly OutcomeRow[]>,
  deadLettersOf: ReadonlyMap<number, readonly DeadLetter[]>,
): ItemEvidence {
  const messages = sent.messagesOf.get(index) ?? [];
  return {
    item,
    key: sent.keyOf.get(index) as string,
    messages,
    lanes: [...new Set(messages.map((id) => sent.laneOfMessage.get(id) as Lane))],
    home: sent.laneOfMessage.get(messages[0] ?? "") as Lane,
    outcomes: outcomesOf.get(index) ?? [],
    deadLetters: deadLettersOf.get(index) ?? [],
  };
}

/**
 * Counts the item (valid or poison, in the lane of its first message) and, for an item sent in
 * both lanes, whether it ended exactly once (one outcome, or none and a DLQ message).
 */
export function countItem(item: ItemEvidence, tally: ChaosTally): void {
  const { counts } = tally;
  const home = tally.lane(item.home);
  counts.items += 1;
  home.items += 1;
  if (item.item.kind === "valid") counts.valid += 1;
  else {
    counts.poison += 1;
    home.poison += 1;
  }
  const rows = item.outcomes.length;
  if (item.lanes.length > 1) {
    counts.crossLane.items += 1;
    if (rows + (rows === 0 && item.deadLetters.length > 0 ? 1 : 0) === 1) counts.crossLane.endedOnce += 1;
  }
}

/**
 * An item has at most one outcome under its key (`duplicate`); each one beyond the first counts
 * in the lane of the message that wrote it.
 */
export function checkOneOutcome(item: ItemEvidence, sent: SentIndex, tally: ChaosTally): void {
  const { outcomes, lanes } = item;
  if (outcomes.length <= 1) return;
  tally.counts.duplicates += outcomes.length - 1;
  for (const extra of outcomes.slice(1)) {
    const lane = sent.laneOfMessage.get(sourceMessageId(extra) ?? "");
    tally.lane(lane ?? item.home).duplicates += 1;
  }
  tally.violate(
    "duplicate",
    `${outcomes.length} outcomes for ${printable(item.key)}${lanes.length > 1 ? " (sent in both lanes)" : ""}`,
  );
}

/**
 * An item without an outcome that is in the DLQ: poison must have been rejected instead
 * (`poison-not-rejected`), and each of its DLQ messages has the reason its function gave
 * (`dead-lettered-without-reason`). Counted in the lane of its first DLQ message.
 */
export function checkDeadLetteredItem(
  item: ItemEvidence,
  failureReasons: ReadonlyMap<string, string>,
  tally: ChaosTally,
): void {
  const key = printable(item.key);
  tally.counts.deadLettered += 1;
  tally.lane((item.deadLetters[0] as DeadLetter).lane ?? DEFAULT_LANE).deadLettered += 1;
  if (item.item.kind === "poison") {
    tally.counts.poisonNotRejected += 1;
    tally.violate("poison-not-rejected", `poison ${item.item.origin} ${key} was dead-lettered, not rejected`);
  }
  for (const letter of item.deadLetters) {
    // An empty reason says no more than none: the record's failure was logged without its cause.
    if (!failureReasons.get(letter.messageId)) {
      tally.counts.deadLetteredWithoutReason += 1;
      tally.violate("dead-lettered-without-reason", `DLQ message ${letter.messageId} of ${key}`);
    }
  }
}

/**
 * An item's outcome (its first) fits it: it came from one of the item's own messages
 * (`conflicting`), then poison was rejected with a reason ({@link checkPoisonRejected}) and a
 * valid item was decided by the policy for its own state ({@link checkValidOutcome}). Counts the
 * outcome's status, and the item's DLQ copies as redundant.
 */
export function checkOutcome(
  item: ItemEvidence,
  outcome: OutcomeRow,
  sent: SentIndex,
  tally: ChaosTally,
): void {
  const { counts } = tally;
  counts.redundantDeadLetters += item.deadLetters.length;
  const status = String(outcome.status);
  counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
  if (status === "rejected") counts.rejected += 1;
  const messageId = sourceMessageId(outcome);
  if (messageId === undefined || !item.messages.includes(messageId)) {
    conflict(item, `its outcome came from message ${messageId ?? "(none)"}, not one sent for it`, tally);
    return;
  }
  const endedIn = sent.laneOfMessage.get(messageId) as Lane;
  if (item.item.kind === "poison") checkPoisonRejected(item, outcome, endedIn, tally);
  else checkValidOutcome(item, outcome, endedIn, tally);
}

/**
 * What the reason of each kind of poison's rejection must say: a poison message rejected for
 * another reason (the pipeline failing on it some other way) is not the rejection it must get.
 */
export const POISON_REASONS: Readonly<Record<PoisonKind, RegExp>> = {
  "invalid-json": /not valid JSON/i,
  "wrong-types": /\b(id|state|facts|expected|invalid)\b/i,
  "unknown-policy": /unknown policy/i,
  "oversized-state": /\b(tokens?|bytes|too (large|long)|size)\b/i,
  "chat-control": /chat-control/i,
  "wrong-facts": /\bfacts\b/i,
};

/** Poison ends `rejected` with the reason its kind gets ({@link POISON_REASONS}; `poison-not-rejected`). */
export function checkPoisonRejected(
  item: ItemEvidence,
  outcome: OutcomeRow,
  endedIn: Lane,
  tally: ChaosTally,
): void {
  const status = String(outcome.status);
  const reason = typeof outcome.reason === "string" ? outcome.reason : "";
  const expected = POISON_REASONS[item.item.origin as PoisonKind];
  if (status === "rejected" && reason !== "" && expected?.test(reason) === true) {
    tally.counts.poisonRejected += 1;
    tally.lane(endedIn).poisonRejected += 1;
  } else if (status === "rejected" && reason !== "") {
    tally.counts.poisonNotRejected += 1;
    tally.violate(
      "poison-not-rejected",
      expected === undefined
        ? `poison ${item.item.origin} ${printable(item.key)} is of no known poison kind, so its reason cannot be matched: ${reason}`
        : `poison ${item.item.origin} ${printable(item.key)} was rejected for another reason than its kind's (${String(expected)}): ${reason}`,
    );
  } else {
    tally.counts.poisonNotRejected += 1;
    tally.violate(
      "poison-not-rejected",
      `poison ${item.item.origin} ${printable(item.key)} ended ${status}${reason === "" ? " without a reason" : ", not rejected"}`,
    );
  }
}

/**
 * A valid item's outcome carries its state's SHA-256 and a status the policy gives, a `rejected`
 * one only by a rule's reject (`conflicting`).
 */
export function checkValidOutcome(
  item: ItemEvidence,
  outcome: OutcomeRow,
  endedIn: Lane,
  tally: ChaosTally,
): void {
  if (outcome.state_sha256 !== item.item.stateSha256) {
    conflict(
      item,
      `its outcome is for state ${String(outcome.state_sha256)}, the item's is ${item.item.stateSha256}`,
      tally,
    );
    return;
  }
  const status = String(outcome.status);
  if (POLICY_STATUSES.has(status) || (status === "rejected" && rejectedByRule(outcome))) {
    tally.counts.decided += 1;
    tally.lane(endedIn).decided += 1;
  } else conflict(item, `a valid item ended ${status}: ${String(outcome.reason ?? "no reason")}`, tally);
}

/** The text an unended item is reported by, and the lanes its messages travelled. */
export function unendedItem(item: ItemEvidence): UnendedItem {
  return { text: `${printable(item.key)} (${item.item.origin})`, lanes: item.lanes };
}

/**
 * Items with neither outcome nor DLQ message that a lane's work queue may still hold are not
 * drained (`not-drained`). Which items the queued messages carry is not known without receiving
 * them (that would add receives), so only the counts tell: each message still queued in a lane may
 * hold one unended item that travelled in it. Items of one lane take their lane's places first,
 * then items sent in both lanes take what is left in either (the most that can be queued: with two
 * lanes this order is optimal). Returns the items left over, in that order: lost.
 */
export function checkNotDrained(
  unended: readonly UnendedItem[],
  queueRemaining: Record<Lane, number>,
  tally: ChaosTally,
): UnendedItem[] {
  const places = { ...queueRemaining };
  const byLaneCount = [...unended].sort((a, b) => a.lanes.length - b.lanes.length);
  const lost: UnendedItem[] = [];
  for (const item of byLaneCount) {
    const lane = item.lanes.find((each) => places[each] > 0);
    if (lane === undefined) {
      lost.push(item);
      continue;
    }
    places[lane] -= 1;
    tally.counts.notDrained += 1;
    tally.lane(lane).notDrained += 1;
    tally.violate(
      "not-drained",
      `${item.text} has no outcome and is not in the DLQ; the ${lane} lane's work queue still holds ${queueRemaining[lane]} message(s)`,
    );
  }
  return lost;
}

/**
 * Nothing is lost (`lost`): the items {@link checkNotDrained} left over have no outcome, no DLQ
 * message, and no message in their lanes' work queues they could be in. Counted in the lane of the
 * item's first message.
 */
export function checkNoneLost(
  lost: readonly UnendedItem[],
  queueRemaining: Record<Lane, number>,
  tally: ChaosTally,
): void {
  for (const item of lost) {
    tally.counts.lost += 1;
    tally.lane(item.lanes[0] as Lane).lost += 1;
    const queued = item.lanes.map((lane) => `${lane} ${queueRemaining[lane]}`).join(", ");
    tally.violate(
      "lost",
      `${item.text} has no outcome, is not in the DLQ, and its lanes' work queues (${item.lanes.join(" and ")}) hold no message it could be in (queued: ${queued}, the others taken by unended items)`,
    );
  }
}

function conflict(item: ItemEvidence, why: string, tally: ChaosTally): void {
  tally.counts.conflicting += 1;
  tally.violate("conflicting", `${printable(item.key)}: ${why}`);
}

function keyText(policy: string, id: string): string {
  return `${policy}\u0000${id}`;
}

function printable(key: string): string {
  return key.replace("\u0000", "/");
}

function sourceMessageId(row: OutcomeRow): string | undefined {
  const source = row.source as { message_id?: unknown } | undefined;
  return typeof source?.message_id === "string" ? source.message_id : undefined;
}

function rejectedByRule(row: OutcomeRow): boolean {
  const fired = row.rules_fired;
  return Array.isArray(fired) && fired.some((rule) => (rule as { effect?: unknown }).effect === "reject");
}

function describeRow(row: OutcomeRow): string {
  return `outcome ${String(row.policy)}/${String(row.id)} (${String(row.status)})`;
}
