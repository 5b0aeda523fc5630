import { isFinalJobStatus, type Job } from "../../contract/jobs/JobSchema.js";

/** What one check of the jobs in progress found (the jobs monitor's metrics). */
export interface JobsTally {
  /** Jobs not final (`reading` or `deciding`). */
  inProgress: number;
  /**
   * Lines of those jobs not ended yet: `lines` − `ended` of each job whose line count is known
   * (`deciding`); a job still `reading` adds none until ingest has read its last line.
   */
  linesPending: number;
  /** Ids of the jobs not final whose record has not changed for longer than the stall threshold. */
  stalled: string[];
}

/**
 * Tallies jobs for the jobs monitor. A job is **stalled** when it is not final and its record
 * (`updated_at`: every count, every status change) has not changed for more than `stallMinutes`:
 * no line ended, no status moved. That is what a line lost without being counted looks like (a
 * crash or timeout on its last receive: the queue is empty, the queue alarms quiet), and a job
 * whose results writer gave up (`deciding` with `ended_at` set).
 */
export function tallyJobs(jobs: readonly Job[], now: number, stallMinutes: number): JobsTally {
  const tally: JobsTally = { inProgress: 0, linesPending: 0, stalled: [] };
  for (const job of jobs) {
    if (isFinalJobStatus(job.status)) continue;
    tally.inProgress += 1;
    if (job.counts.lines !== undefined)
      tally.linesPending += Math.max(0, job.counts.lines - job.counts.ended);
    const quietMs = now - Date.parse(job.updated_at);
    if (quietMs > stallMinutes * 60_000) tally.stalled.push(job.job_id);
  }
  return tally;
}
