import type { Job } from "../../contract/jobs/JobSchema.js";

/**
 * Whether a job's end check is outstanding: `deciding`, every line ended (its counters' `ended`
 * reaching `lines`), and `ended_at` unset — the writer of its last line stopped between its count
 * and its end check. `JobLedger.checkEnded` makes it good (the jobs monitor runs it).
 */
export function endCheckOutstanding(job: Job): boolean {
  return (
    job.status === "deciding" &&
    job.ended_at === undefined &&
    job.counts.lines !== undefined &&
    job.counts.ended >= job.counts.lines
  );
}
