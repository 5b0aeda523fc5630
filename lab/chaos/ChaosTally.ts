import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import {
  CHAOS_VIOLATION_COUNTS,
  type ChaosCheck,
  type ChaosCounts,
  type ChaosEvidence,
  type ChaosViolation,
  type LaneCounts,
} from "./chaosCheckTypes.js";

/** How many violations a {@link ChaosCheck} lists (it counts them all). */
const MAX_LISTED = 50;

/**
 * What the chaos checks have found so far: the counts, and the violations in the order the checks
 * found them (the first 50 listed, all counted). Every check of {@link checkChaosInvariant} records
 * into one tally, so that the order of the violations follows the evidence (row by row, DLQ message
 * by DLQ message, item by item), not the order of the checks.
 */
export class ChaosTally {
  /** The counts, every one 0 but the messages sent and what the lanes' work queues still held. */
  readonly counts: ChaosCounts;
  /** The first violations found. */
  private readonly violations: ChaosViolation[] = [];
  private violationCount = 0;

  /**
   * @param messages The messages the run sent.
   * @param queueRemaining What each lane's work queue still held ({@link queueRemainingByLane}).
   */
  constructor(messages: number, queueRemaining: Record<Lane, number>) {
    this.counts = {
      messages,
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
      poisonNotRejected: 0,
      deadLetteredWithoutReason: 0,
      deadLetteredEarly: 0,
      unknownDeadLetters: 0,
      notSent: 0,
      unknownItems: 0,
      ambiguousKeys: 0,
      crossLane: { items: 0, endedOnce: 0 },
      lanes: { interactive: emptyLaneCounts(), bulk: emptyLaneCounts() },
    };
    for (const lane of LANES) {
      this.counts.lanes[lane].queueRemaining = queueRemaining[lane];
      this.counts.queueRemaining += queueRemaining[lane];
    }
  }

  /** The counts of one lane. */
  lane(lane: Lane): LaneCounts {
    return this.counts.lanes[lane];
  }

  /** Records one broken promise. */
  violate(kind: ChaosViolation["kind"], detail: string): void {
    this.violationCount += 1;
    if (this.violations.length < MAX_LISTED) this.violations.push({ kind, detail });
  }

  /**
   * The verdict: ok only with no violation and every count a kind of violation moves
   * ({@link CHAOS_VIOLATION_COUNTS}) at 0.
   */
  verdict(): ChaosCheck {
    const { counts, violations, violationCount } = this;
    const ok =
      violationCount === 0 && Object.values(CHAOS_VIOLATION_COUNTS).every((field) => counts[field] === 0);
    return { ok, counts, violations, violationCount };
  }
}

/**
 * What each lane's work queue still held, from the evidence's `queueRemaining` (a number: the
 * interactive lane's, where a one-lane run sends).
 *
 * @throws RangeError when a lane's count is not a non-negative integer.
 */
export function queueRemainingByLane(queueRemaining: ChaosEvidence["queueRemaining"]): Record<Lane, number> {
  const byLane: Record<Lane, number> =
    typeof queueRemaining === "number" ? { interactive: queueRemaining, bulk: 0 } : queueRemaining;
  for (const lane of LANES) {
    const remaining = byLane[lane];
    if (!(Number.isInteger(remaining) && remaining >= 0)) {
      throw new RangeError(`queueRemaining.${lane} must be a non-negative integer, got ${remaining}`);
    }
  }
  return byLane;
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
