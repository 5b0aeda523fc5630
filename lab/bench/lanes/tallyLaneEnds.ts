/** What one lane holds at the end of a lanes bench run, as {@link tallyLaneEnds} takes it. */
export interface LaneEvidence {
  /** Work items sent to the lane (distinct ids) that have no row in the outcomes table. */
  withoutOutcome: number;
  /** Messages the lane's work queue still holds (visible, in flight and delayed). */
  queued: number;
  /** Messages in the lane's DLQ. */
  deadLettered: number;
}

/** Where a lane's items without an outcome are: in its DLQ, still queued, or nowhere. */
export interface LaneEnds {
  /** Messages in the lane's DLQ. */
  dead_lettered: number;
  /** Items without an outcome that the lane's queue still holds: not ended, not lost. */
  not_ended: number;
  /** Items without an outcome that are neither in the lane's queue nor in its DLQ. */
  lost: number;
}

/**
 * Tells a lane's items without an outcome apart, from the real queue, DLQ and outcomes table: a
 * dead-lettered message ended without an outcome; of the rest, as many as the queue still holds
 * have not ended yet (the run stopped waiting for them); any beyond that are lost — never decided
 * and in no queue. SQS's counts are approximate, and a queue's message cannot be named without
 * receiving it, so an item is counted not ended rather than lost whenever the queue could hold it.
 *
 * @example
 * tallyLaneEnds({ withoutOutcome: 5, queued: 3, deadLettered: 1 }); // { dead_lettered: 1, not_ended: 3, lost: 1 }
 */
export function tallyLaneEnds(evidence: LaneEvidence): LaneEnds {
  const undecided = Math.max(0, evidence.withoutOutcome - evidence.deadLettered);
  const notEnded = Math.min(undecided, evidence.queued);
  return { dead_lettered: evidence.deadLettered, not_ended: notEnded, lost: undecided - notEnded };
}
