import { AUDIT_QUEUE, type StoredOutcomeStatus } from "../../contract/outcome/OutcomeSchema.js";
import type { OutcomesReader } from "../outcomes/OutcomesReader.js";
import type { TimeRange } from "./driftWindows.js";
import { type DriftObservation, observeOutcome } from "./observeOutcome.js";

/** The by-status partitions whose outcomes carry answers (a `rejected` one has none). */
const ANSWERED: readonly (StoredOutcomeStatus | typeof AUDIT_QUEUE)[] = [
  "decided",
  AUDIT_QUEUE,
  "fallback",
  "overridden",
  "reviewed",
];

/** The last `updated_at` the index can hold (ISO-8601 text sorts as time). */
const END_OF_TIME = "9999-12-31T23:59:59.999Z";

/** What {@link readDriftObservations} read. */
export interface DriftRead {
  observations: DriftObservation[];
  /** Outcomes read from the index (those decided in the range, and the ones it had to skip). */
  read: number;
  /** Outcomes decided in the range. */
  kept: number;
}

/**
 * The observations of a policy's outcomes decided (`created_at`) in `range`. The outcomes table has
 * no index by decision time; the `by-status` index sorts each `<policy>#<status>` partition by
 * `updated_at`, which is never before `created_at`. So each answered partition is queried for
 * `updated_at` from `range.since` on, and the outcomes decided before `range.since` (read because a
 * review, an audit or a supersede changed them since) are skipped: the read is bounded by the
 * outcomes decided since `range.since` plus those changed since, never the whole policy.
 *
 * @throws OutcomesTableError, MalformedOutcomeError as the reader's queries do.
 */
export async function readDriftObservations(
  reader: OutcomesReader,
  policy: string,
  range: TimeRange,
): Promise<DriftRead> {
  const since = new Date(range.since).toISOString();
  const observations: DriftObservation[] = [];
  let read = 0;
  let kept = 0;
  for (const partition of ANSWERED) {
    for await (const page of reader.inRange(policy, partition, { since, until: END_OF_TIME })) {
      read += page.length;
      for (const outcome of page) {
        const decided = Date.parse(outcome.created_at);
        if (!(decided >= range.since && decided < range.until)) continue;
        kept += 1;
        observations.push(...observeOutcome(outcome));
      }
    }
  }
  return { observations, read, kept };
}
