import { z } from "zod";
import { DecisionUsageSchema } from "../outcome/DecisionUsageSchema.js";
import { STORED_OUTCOME_STATUSES } from "../outcome/OutcomeSchema.js";

/** The status of a results line: the outcome's status, or `dead_lettered` (no outcome). */
export const JOB_LINE_STATUSES = [...STORED_OUTCOME_STATUSES, "dead_lettered"] as const;

/** The status of a results line. */
export type JobLineStatus = (typeof JOB_LINE_STATUSES)[number];

/** One question's answer in a results line. */
export const JobResultAnswerSchema = z.object({
  answer: z.union([z.string(), z.number(), z.boolean()]),
  /** Probability of that answer under the (calibrated) distribution. */
  probability: z.number(),
});

/**
 * One line of a job's JSONL results (and of `decisions classify`'s results): exactly one per input
 * line, in input order. Keys in this order when written.
 */
export const JobResultLineSchema = z.object({
  /** The 1-based line of the input. */
  line: z.number().int().positive(),
  /** The work item id (for a line without a readable id: the deterministic id it was stored under). */
  id: z.string(),
  /** The policy the outcome is stored under (`_unparsed` for a line that was not a work item). */
  policy: z.string(),
  status: z.enum(JOB_LINE_STATUSES),
  /** Question id → the answer that stands and its probability; absent when rejected or dead-lettered. */
  answers: z.record(z.string(), JobResultAnswerSchema).optional(),
  /** Why it was rejected, sent to review or dead-lettered, when there is a reason. */
  reason: z.string().optional(),
  /** Set when the id already had an outcome (a repeated id): this is the outcome that stands. */
  duplicate: z.literal(true).optional(),
});

/** One results line. */
export type JobResultLine = z.infer<typeof JobResultLineSchema>;

/**
 * A line item of the jobs table (`line` ≥ 1): the line's results line, written once in the
 * transaction that counts it, plus the job id.
 */
export const JobLineItemSchema = JobResultLineSchema.extend({
  job_id: z.string().min(1),
  /** When the line ended. */
  ended_at: z.string(),
  /** The outcome's policy version and hash, and the model that decided it: for the manifest. */
  policy_version: z.union([z.string(), z.number()]).optional(),
  policy_sha256: z.string().optional(),
  model: z.string().optional(),
  model_sha256: z.string().optional(),
  /** What the outcome's endpoint request cost (tokens, time, group size, lane): for the manifest's sums. */
  usage: DecisionUsageSchema.optional(),
});

/** A line item of the jobs table. */
export type JobLineItem = z.infer<typeof JobLineItemSchema>;
