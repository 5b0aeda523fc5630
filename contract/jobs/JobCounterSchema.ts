import { z } from "zod";
import { emptyJobCounts, JobCountsSchema } from "./JobSchema.js";

/**
 * The counts one counter item holds: every count of a job but `lines` and `sent`, which the job
 * record holds (`sent` = `lines` − `rejected_at_ingest` once the lines are known).
 */
export const JobCounterCountsSchema = JobCountsSchema.omit({ lines: true, sent: true });

/** The counts of one counter item. */
export type JobCounterCounts = z.infer<typeof JobCounterCountsSchema>;

/**
 * A counter item of the jobs table (`line` ≤ −1, `jobCounterLine`): one share of a job's counts.
 * Created with the job record (all zero); each line's transaction adds to the counter of its line
 * (`jobCounterShardOf`) instead of to the job record, so the lines of one job ending at the same
 * time do not all write one item. The job's counts are the sum over its counters.
 */
export const JobCounterSchema = z.object({
  job_id: z.string().min(1),
  /** −1 − the counter's 0-based index. */
  line: z.number().int().negative(),
  counts: JobCounterCountsSchema,
  /** The last change of this counter. */
  updated_at: z.string(),
});

/** A counter item. */
export type JobCounter = z.infer<typeof JobCounterSchema>;

/** Counts of a counter that has just been created. */
export function emptyJobCounterCounts(): JobCounterCounts {
  const { sent: _sent, ...counts } = emptyJobCounts();
  return counts;
}
