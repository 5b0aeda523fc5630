import type { Lane } from "../../contract/lanes/lanes.js";
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
  /**
   * The work queues' `maxReceiveCount`: a DLQ message received fewer times than this was moved
   * there early (`dead-lettered-early`). Unchecked when absent.
   */
  maxReceiveCount?: number;
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
  /** Poison items not `rejected` with the reason their kind gets: decided, dead-lettered, or rejected for another reason (must be 0). */
  poisonNotRejected: number;
  /** DLQ messages for which the decide function logged no failure reason (must be 0). */
  deadLetteredWithoutReason: number;
  /** DLQ messages received fewer times than `maxReceiveCount` (must be 0). */
  deadLetteredEarly: number;
  /** DLQ messages that descend from no message the run sent (must be 0). */
  unknownDeadLetters: number;
  /** Items the run has but sent no message for (must be 0: such an item cannot end). */
  notSent: number;
  /** Messages naming an item the run does not have (must be 0). */
  unknownItems: number;
  /** Items whose key an earlier item already has (must be 0: an outcome under it belongs to neither alone). */
  ambiguousKeys: number;
  /** Items sent in both lanes (a message in each queue), and how many of them ended exactly once. */
  crossLane: { items: number; endedOnce: number };
  /** The counts per lane. */
  lanes: Record<Lane, LaneCounts>;
}

/** Every kind of broken promise the checker names: one per invariant. */
export const CHAOS_VIOLATION_KINDS = [
  "lost",
  "not-drained",
  "duplicate",
  "conflicting",
  "unexpected",
  "poison-not-rejected",
  "dead-lettered-without-reason",
  "dead-lettered-busy",
  "dead-lettered-in-other-lane",
  "dead-lettered-early",
  "unknown-dead-letter",
  "not-sent",
  "unknown-item",
  "ambiguous-key",
] as const;

/** The name of one kind of broken promise. */
export type ChaosViolationKind = (typeof CHAOS_VIOLATION_KINDS)[number];

/** The fields of {@link ChaosCounts} that hold one number. */
export type ChaosCountField = {
  [F in keyof ChaosCounts]: ChaosCounts[F] extends number ? F : never;
}[keyof ChaosCounts];

/**
 * The count each kind of violation moves: every kind has one, so a report (or a reader of the
 * JSON) sees every broken promise in the counts, and the verdict requires each of them to be 0.
 */
export const CHAOS_VIOLATION_COUNTS: Readonly<Record<ChaosViolationKind, ChaosCountField>> = {
  lost: "lost",
  "not-drained": "notDrained",
  duplicate: "duplicates",
  conflicting: "conflicting",
  unexpected: "unexpected",
  "poison-not-rejected": "poisonNotRejected",
  "dead-lettered-without-reason": "deadLetteredWithoutReason",
  "dead-lettered-busy": "deadLetteredBusy",
  "dead-lettered-in-other-lane": "deadLetteredElsewhere",
  "dead-lettered-early": "deadLetteredEarly",
  "unknown-dead-letter": "unknownDeadLetters",
  "not-sent": "notSent",
  "unknown-item": "unknownItems",
  "ambiguous-key": "ambiguousKeys",
};

/** One broken promise, with what the checker saw. */
export interface ChaosViolation {
  kind: ChaosViolationKind;
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
