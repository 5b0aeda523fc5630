import type { Job, JobCounts } from "../../contract/index.js";

/** One job as `decisions jobs list --json` and `jobs show --json` print it. */
export interface JobSummary {
  job_id: string;
  source: string;
  status: Job["status"];
  counts: JobCounts;
  results_uri: string | null;
  manifest_uri: string | null;
}

/**
 * The fields of a job a script needs, in a fixed order; the URIs are `null` until the results are
 * written, so every line has the same keys.
 */
export function jobSummary(job: Job): JobSummary {
  return {
    job_id: job.job_id,
    source: job.source,
    status: job.status,
    counts: job.counts,
    results_uri: job.results_uri ?? null,
    manifest_uri: job.manifest_uri ?? null,
  };
}
