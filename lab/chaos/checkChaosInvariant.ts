import type { WorkloadItem } from "./buildChaosWorkload.js";
import { ChaosTally, queueRemainingByLane } from "./ChaosTally.js";
import type { ChaosCheck, ChaosEvidence } from "./chaosCheckTypes.js";
import {
  checkDeadLetteredItem,
  checkDeadLetters,
  checkNoneLost,
  checkNotDrained,
  checkOneOutcome,
  checkOutcome,
  checkOutcomesWereSent,
  countItem,
  indexSent,
  itemEvidence,
  type UnendedItem,
  unendedItem,
} from "./chaosInvariantChecks.js";

export type {
  ChaosCheck,
  ChaosCountField,
  ChaosCounts,
  ChaosEvidence,
  ChaosViolation,
  ChaosViolationKind,
  LaneCounts,
  SentMessage,
} from "./chaosCheckTypes.js";
export { CHAOS_VIOLATION_COUNTS, CHAOS_VIOLATION_KINDS } from "./chaosCheckTypes.js";
export { isBusyReason } from "./isBusyReason.js";

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
 *
 * The violations are listed in the order the evidence is read: the outcomes, the DLQ messages, the
 * items, then the items that did not end (not drained, then lost).
 *
 * @throws RangeError when `queueRemaining` holds a count that is not a non-negative integer.
 */
export function checkChaosInvariant(evidence: ChaosEvidence): ChaosCheck {
  const queueRemaining = queueRemainingByLane(evidence.queueRemaining);
  const tally = new ChaosTally(evidence.sent.length, queueRemaining);
  const sent = indexSent(evidence.items, evidence.sent, tally);
  const outcomesOf = checkOutcomesWereSent(evidence.rows, sent, tally);
  const deadLettersOf = checkDeadLetters(evidence, sent, tally);
  const unended: UnendedItem[] = [];
  for (const index of sent.keyOf.keys()) {
    const item = itemEvidence(index, evidence.items[index] as WorkloadItem, sent, outcomesOf, deadLettersOf);
    countItem(item, tally);
    checkOneOutcome(item, sent, tally);
    const outcome = item.outcomes[0];
    if (outcome !== undefined) checkOutcome(item, outcome, sent, tally);
    else if (item.deadLetters.length > 0) checkDeadLetteredItem(item, evidence.failureReasons, tally);
    else unended.push(unendedItem(item));
  }
  const lost = checkNotDrained(unended, queueRemaining, tally);
  checkNoneLost(lost, queueRemaining, tally);
  return tally.verdict();
}
