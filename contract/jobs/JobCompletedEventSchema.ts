import { z } from "zod";
import { FINAL_JOB_STATUSES, JobCountsSchema } from "./JobSchema.js";

/** `source` of the job events on the outcomes bus. */
export const JOB_EVENT_SOURCE = "decisions.jobs";

/** `detail-type` of the event published when a job reaches a final status. */
export const JOB_COMPLETED_DETAIL_TYPE = "Decision Job Completed";

/** The `detail` of a "Decision Job Completed" event. */
export const JobCompletedDetailSchema = z.object({
  job_id: z.string().min(1),
  status: z.enum(FINAL_JOB_STATUSES),
  /** `s3://bucket/key` of the object read. */
  source: z.string(),
  version_id: z.string().optional(),
  counts: JobCountsSchema,
  /** Absent when the job `failed` before they were written. */
  results_uri: z.string().optional(),
  manifest_uri: z.string().optional(),
  created_at: z.string(),
  completed_at: z.string(),
  /** Why the job failed. */
  reason: z.string().optional(),
});

/** The detail of a "Decision Job Completed" event. */
export type JobCompletedDetail = z.infer<typeof JobCompletedDetailSchema>;
