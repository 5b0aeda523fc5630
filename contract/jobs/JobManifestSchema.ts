import { z } from "zod";
import { JOB_STATUSES, JobCountsSchema } from "./JobSchema.js";

/** A policy version the outcomes of a job were decided under. */
export const JobPolicyVersionSchema = z.object({
  name: z.string(),
  version: z.union([z.string(), z.number()]).optional(),
  sha256: z.string().optional(),
  /** Lines decided under this version. */
  lines: z.number().int().nonnegative(),
});

/** A model the outcomes of a job were decided by. */
export const JobModelSchema = z.object({
  /** The model as the endpoint named it. */
  model: z.string(),
  /** SHA-256 of the model file (from its manifest), when the outcomes carry it. */
  sha256: z.string().optional(),
  lines: z.number().int().nonnegative(),
});

/** Times of a job (ISO-8601 UTC) and the durations between them (milliseconds). */
export const JobTimingsSchema = z.object({
  created_at: z.string(),
  read_at: z.string().optional(),
  ended_at: z.string().optional(),
  completed_at: z.string(),
  /** created → read. */
  reading_ms: z.number().nonnegative().optional(),
  /** created → ended (the last line ended). */
  deciding_ms: z.number().nonnegative().optional(),
  /** ended → completed (results and manifest written). */
  writing_ms: z.number().nonnegative().optional(),
  /** created → completed. */
  total_ms: z.number().nonnegative(),
});

/**
 * What a job's decisions cost at the endpoint: each line's share of its request (the request's
 * tokens and time ÷ the items that shared it), summed. Lines decided without a model call
 * (rejected, rule-only, dead-lettered) count for nothing.
 */
export const JobUsageSchema = z.object({
  /** Lines whose outcome records its endpoint request's tokens. */
  decisions: z.number().int().nonnegative(),
  /** Prompt tokens (the shared state counted once per request). */
  input_tokens: z.number().nonnegative(),
  /** Tokens the endpoint evaluated. */
  evaluated_tokens: z.number().nonnegative(),
  /** Tokens it reused from already evaluated state (shared prefix, cache) instead. */
  cached_tokens: z.number().nonnegative(),
  /** Seconds of successful endpoint calls. */
  endpoint_seconds: z.number().nonnegative(),
});

/** What a job's decisions cost at the endpoint (see {@link JobUsageSchema}). */
export type JobUsage = z.infer<typeof JobUsageSchema>;

/**
 * A job's manifest (JSON, beside the results object; `decisions classify` writes the same form).
 * Its counts add up as `JobCountsSchema` says, and `result_lines` = `counts.lines`.
 */
export const JobManifestSchema = z.object({
  job_id: z.string().min(1),
  /** `s3://bucket/key` (or, for classify, the input file's path). */
  source: z.string(),
  version_id: z.string().optional(),
  status: z.enum(JOB_STATUSES),
  results_uri: z.string(),
  /** Lines in the results object. */
  result_lines: z.number().int().nonnegative(),
  /** Bytes of the results object. */
  result_bytes: z.number().int().nonnegative(),
  counts: JobCountsSchema,
  timings: JobTimingsSchema,
  /** Policy versions the lines were decided under (lines without an outcome policy version left out). */
  policies: z.array(JobPolicyVersionSchema),
  /** Models the lines were decided by (rule-only and rejected lines have none). */
  models: z.array(JobModelSchema),
  /** Tokens and endpoint time, summed over the lines (absent from manifests written before it). */
  usage: JobUsageSchema.optional(),
});

/** A job's manifest. */
export type JobManifest = z.infer<typeof JobManifestSchema>;
