import type { JobCounter } from "../../contract/jobs/JobCounterSchema.js";
import { emptyJobCounts, type Job, type JobCounts } from "../../contract/jobs/JobSchema.js";

/**
 * The job as its record and its counters say together: counts are the counters' sum, with
 * `lines` from the record and `sent` = `lines` − `rejected_at_ingest` (0 while `lines` is not
 * known); `updated_at` is the latest of the record's and the counters'.
 *
 * A record without counters (written before jobs had them) is returned as it is: its own counts
 * are then the live ones. With counters, the record's other counts are ignored: they are zero, or
 * the copy of the sum written when the job reached a final status (for the completion event).
 */
export function foldJobCounters(record: Job, counters: readonly JobCounter[]): Job {
  if (counters.length === 0) return record;
  const counts: JobCounts = {
    ...emptyJobCounts(),
    ...(record.counts.lines !== undefined ? { lines: record.counts.lines } : {}),
  };
  let updatedAt = record.updated_at;
  for (const counter of counters) {
    counts.rejected_at_ingest += counter.counts.rejected_at_ingest;
    counts.dead_lettered += counter.counts.dead_lettered;
    counts.ended += counter.counts.ended;
    counts.duplicates += counter.counts.duplicates;
    for (const status of Object.keys(counts.outcomes) as (keyof JobCounts["outcomes"])[])
      counts.outcomes[status] += counter.counts.outcomes[status];
    // ISO-8601 UTC strings of one format order as the times they name.
    if (counter.updated_at > updatedAt) updatedAt = counter.updated_at;
  }
  if (counts.lines !== undefined) counts.sent = counts.lines - counts.rejected_at_ingest;
  return { ...record, counts, updated_at: updatedAt };
}
