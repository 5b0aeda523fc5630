import { z } from "zod";
import { OUTCOME_STATUSES } from "../outcome/OutcomeSchema.js";

/**
 * The states of a job (one per ingested object version), in the order they are reached:
 *
 * - `reading`: ingest is reading the object; the line count is not known yet.
 * - `deciding`: every line was read and is either sent to the work queue or rejected at ingest
 *   (`counts.lines` is known); lines are still ending.
 * - `complete`: every line ended with an outcome that is not `rejected`, and the results and
 *   manifest are written.
 * - `complete_with_errors`: every line ended, some `rejected` or dead-lettered; results written.
 * - `failed`: the job cannot end as the others (the object could not be read to its end for good,
 *   or the results could not be written); `reason` says why.
 */
export const JOB_STATUSES = ["reading", "deciding", "complete", "complete_with_errors", "failed"] as const;

/** The status of a job. */
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The statuses a job ends in (the completion event is published on reaching one). */
export const FINAL_JOB_STATUSES = ["complete", "complete_with_errors", "failed"] as const;

/** A final status of a job. */
export type FinalJobStatus = (typeof FINAL_JOB_STATUSES)[number];

/** Whether `status` is one a job ends in. */
export function isFinalJobStatus(status: string): status is FinalJobStatus {
  return (FINAL_JOB_STATUSES as readonly string[]).includes(status);
}

const count = z.number().int().nonnegative();

/**
 * Lines that ended with an outcome, by the outcome's status (the pipeline's statuses). A line whose
 * work item id already had an outcome (a repeated id, or one decided before this object) counts
 * under the status of the outcome that stands.
 */
export const JobOutcomeCountsSchema = z.object(
  Object.fromEntries(OUTCOME_STATUSES.map((status) => [status, count])) as Record<
    (typeof OUTCOME_STATUSES)[number],
    typeof count
  >,
);

/** Outcome counts by status. */
export type JobOutcomeCounts = z.infer<typeof JobOutcomeCountsSchema>;

/**
 * A job's counts. Each line of the object is counted once, whatever redeliveries and duplicates
 * happen (the count moves in the same DynamoDB transaction as the line's outcome, conditional on
 * the line not being counted yet, on one of the job's counters — `JobCounterSchema` — whose sum
 * the jobs table's reader gives as the job's counts). They add up:
 *
 * - `lines` = `sent` + `rejected_at_ingest` (blank lines are not lines of a job);
 * - `ended` = Σ `outcomes` + `dead_lettered`; the job's lines have all ended when `ended` = `lines`;
 * - `rejected_at_ingest` ≤ `outcomes.rejected` (ingest's rejected lines are outcomes too).
 */
export const JobCountsSchema = z.object({
  /** Lines of the object (non-blank); known once reading is done (status `deciding` onwards). */
  lines: count.optional(),
  /** Lines sent to the work queue as work items. */
  sent: count,
  /** Lines ingest recorded as `rejected` (not JSON, invalid work item, unknown policy, refused by SQS). */
  rejected_at_ingest: count,
  /** Lines that ended with an outcome, by status (ingest's rejected lines included). */
  outcomes: JobOutcomeCountsSchema,
  /** Lines whose message reached the dead-letter queue without an outcome. */
  dead_lettered: count,
  /** Lines ended: Σ `outcomes` + `dead_lettered`. */
  ended: count,
  /** Of the ended lines, those whose id already had an outcome (counted under its status). */
  duplicates: count,
});

/** A job's counts. */
export type JobCounts = z.infer<typeof JobCountsSchema>;

/** Counts of a job that has just been created (`lines` unknown). */
export function emptyJobCounts(): JobCounts {
  return {
    sent: 0,
    rejected_at_ingest: 0,
    outcomes: { decided: 0, fallback: 0, overridden: 0, rejected: 0 },
    dead_lettered: 0,
    ended: 0,
    duplicates: 0,
  };
}

/**
 * A job: one per ingested S3 object version (`job_id` from bucket, key and version — see
 * {@link JOB_ID_PATTERN}), as stored in the jobs table (`JOBS_TABLE_KEYS`, `line` = 0). Attribute
 * names are snake_case as stored; times are ISO-8601 UTC.
 */
export const JobSchema = z.object({
  job_id: z.string().min(1),
  /** `s3://bucket/key` of the object read. */
  source: z.string().min(1),
  bucket: z.string().min(1),
  key: z.string().min(1),
  /** The object version read; absent for a bucket without versioning. */
  version_id: z.string().optional(),
  /** The object's ETag as S3 reported it (a bucket without versioning: part of the job's identity). */
  etag: z.string().optional(),
  status: z.enum(JOB_STATUSES),
  counts: JobCountsSchema,
  /** When ingest first read the object. */
  created_at: z.string(),
  /** When ingest had read every line (`reading` → `deciding`). */
  read_at: z.string().optional(),
  /** When the last line ended (`ended` reached `lines`): the results writer's trigger. */
  ended_at: z.string().optional(),
  /** When the results and manifest were written and the job reached its final status. */
  completed_at: z.string().optional(),
  /** The last change of the record or of one of its counters (any count, any status). */
  updated_at: z.string(),
  /** `s3://…` of the JSONL results, once written. */
  results_uri: z.string().optional(),
  /** `s3://…` of the manifest, once written. */
  manifest_uri: z.string().optional(),
  /** Why the job `failed`, for a person. */
  reason: z.string().optional(),
});

/** A job record. */
export type Job = z.infer<typeof JobSchema>;

/**
 * The form of a job id: `job-` and 32 lowercase hex digits of SHA-256 over the bucket, the key and
 * the version (or, in a bucket without versioning, the ETag), each followed by a newline — so
 * ingesting the same object version again is the same job (computed by `core/jobs/jobIdOf`).
 */
export const JOB_ID_PATTERN = /^job-[0-9a-f]{32}$/;
