import {
  type JobCompletedDetail,
  JobCompletedDetailSchema,
} from "../../contract/jobs/JobCompletedEventSchema.js";
import { isFinalJobStatus, type Job } from "../../contract/jobs/JobSchema.js";

/**
 * The detail of a job's "Decision Job Completed" event: the job record once its final status is
 * written (the results writer's, or the new image of the jobs table's stream record on AWS).
 *
 * @throws RangeError when the job is not final or has no `completed_at` (no completion to tell).
 */
export function jobCompletedDetailOf(job: Job): JobCompletedDetail {
  if (!isFinalJobStatus(job.status)) throw new RangeError(`job ${job.job_id} is ${job.status}, not final`);
  if (job.completed_at === undefined)
    throw new RangeError(`job ${job.job_id} is ${job.status} without completed_at`);
  return JobCompletedDetailSchema.parse({
    job_id: job.job_id,
    status: job.status,
    source: job.source,
    ...(job.version_id !== undefined ? { version_id: job.version_id } : {}),
    counts: job.counts,
    ...(job.results_uri !== undefined ? { results_uri: job.results_uri } : {}),
    ...(job.manifest_uri !== undefined ? { manifest_uri: job.manifest_uri } : {}),
    created_at: job.created_at,
    completed_at: job.completed_at,
    ...(job.reason !== undefined ? { reason: job.reason } : {}),
  });
}
