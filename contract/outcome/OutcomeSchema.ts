import { z } from "zod";
import { LaneSchema } from "../lanes/lanes.js";
import {
  OutcomeConflictSchema,
  OutcomeHistoryEntrySchema,
  OutcomeSupersedesSchema,
} from "./outcomeRecordSchemas.js";

/** The statuses an outcome can have (`reviewed`, by a human, comes later). */
export const OUTCOME_STATUSES = ["decided", "fallback", "overridden", "rejected"] as const;

/** The status of an outcome. */
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** One question's answer in an outcome. */
export const OutcomeAnswerSchema = z.object({
  /** The answer that stands: a label, a level, or yes/no. */
  answer: z.union([z.string(), z.number(), z.boolean()]),
  /** Probability of that answer under the (calibrated) distribution. */
  probability: z.number(),
  /** The full distribution the model gave (label → probability), after calibration. */
  distribution: z.record(z.string(), z.number()),
  /** The policy's threshold for this question. */
  threshold: z.number(),
  /** Who set the answer. */
  source: z.enum(["model", "rule", "fallback"]),
  /** The rule that set it, when `source` is `rule`. */
  rule: z.string().optional(),
  /** What the model answered, when a rule or the fallback replaced it. */
  model_answer: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** Score questions: the calibrated expected level Σ i·p_i. */
  score: z.number().optional(),
  /** Set when the distribution was cut to its most probable labels to bound the item's size. */
  distribution_truncated: z.boolean().optional(),
});

/** Where the record came from. */
export const OutcomeSourceSchema = z.object({
  /** `file`: decided offline by `decisions classify` from a JSONL file (`line` set). */
  kind: z.enum(["sqs", "eventbridge", "s3", "file"]),
  /** SQS message id. */
  message_id: z.string().optional(),
  /** SQS `ApproximateReceiveCount` of the delivery that decided it. */
  receive_count: z.number().int().optional(),
  /** EventBridge `source` and `detail-type`, for a mapped event. */
  event_source: z.string().optional(),
  event_detail_type: z.string().optional(),
  /** For ingest: the S3 object and the 1-based line (for `file`: the line of the input file). */
  bucket: z.string().optional(),
  key: z.string().optional(),
  version_id: z.string().optional(),
  line: z.number().int().optional(),
  /** The job the line belongs to (ingest's jobs: `contract/jobs`), with `line` its input line. */
  job_id: z.string().optional(),
});

/** The endpoint request an item was decided in. */
export const OutcomeRequestSchema = z.object({
  /** SageMaker endpoint name. */
  endpoint: z.string(),
  /** SageMaker's request id of the successful attempt. */
  request_id: z.string().optional(),
  /** How many work items shared this request (one state, one policy). */
  group_size: z.number().int().positive(),
  /** Attempts it took (1 = no retry). */
  attempts: z.number().int().positive(),
  /**
   * The request's prompt tokens as the endpoint counted them (System One's `usage.input_tokens`:
   * the shared state once). The request's, not this item's: an item's share is ÷ `group_size`.
   */
  input_tokens: z.number().int().nonnegative().optional(),
  /** Tokens the endpoint evaluated for the request (`usage.evaluated_tokens`), when it says. */
  evaluated_tokens: z.number().int().nonnegative().optional(),
  /**
   * Tokens of the request's prompts the endpoint reused rather than evaluated (the state prefix its
   * questions share, or its cache of earlier states; `usage.cached_tokens`), when it says.
   */
  cached_tokens: z.number().int().nonnegative().optional(),
});

/** Durations in milliseconds. */
export const OutcomeTimingsSchema = z.object({
  /** The successful endpoint attempt. */
  endpoint_ms: z.number().optional(),
  /** From the first endpoint attempt to the answer, backoffs included. */
  endpoint_total_ms: z.number().optional(),
  /** From the batch's start to this outcome being built. */
  batch_ms: z.number().optional(),
  /** From `submitted_at` (or the SQS sent timestamp) to this outcome being built. */
  queue_to_outcome_ms: z.number().optional(),
});

/**
 * An outcome item of the outcomes table: exactly one per (policy, work item id), written once.
 * Attribute names are snake_case as stored. Items stay far below DynamoDB's 400 KB limit: the state
 * is kept as a hash and a bounded preview, reasons are bounded, distributions are bounded.
 */
export const OutcomeSchema = z.object({
  policy: z.string().min(1),
  id: z.string().min(1),
  /** `<policy>#<status>`, the review index's partition key. */
  policy_status: z.string(),
  status: z.enum(OUTCOME_STATUSES),
  /** Why it was rejected (or sent to review), for a person. */
  reason: z.string().optional(),
  /** Field path of the problem, when the reason is about one field. */
  reason_path: z.array(z.union([z.string(), z.number()])).optional(),
  /** Question id → answer; absent for a rejected record. */
  answers: z.record(z.string(), OutcomeAnswerSchema).optional(),
  /** The rules whose condition held, in the order they fired. */
  rules_fired: z.array(
    z.object({
      name: z.string(),
      effect: z.string(),
      reason: z.string().optional(),
      set: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    }),
  ),
  policy_version: z.union([z.string(), z.number()]).optional(),
  policy_sha256: z.string().optional(),
  /** Model identity as the endpoint reported it. */
  model: z.string().optional(),
  /** SHA-256 of the model's GGUF as the endpoint reported it (the file its manifest records). */
  model_sha256: z.string().optional(),
  /** The adapter build that answered (package version, llama.cpp release and binary). */
  adapter_build: z.string().optional(),
  /**
   * The prompt hash(es) the endpoint reported: one string, or question id → hash. Absent when the
   * endpoint's response carries none.
   */
  prompt_sha256: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  request: OutcomeRequestSchema.optional(),
  timings: OutcomeTimingsSchema.optional(),
  /** The lane of the decide function that asked the endpoint (its `LANE` setting), when it has one. */
  lane: LaneSchema.optional(),
  source: OutcomeSourceSchema,
  submitted_at: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** SHA-256 of the state text exactly as the producer wrote it. */
  state_sha256: z.string().optional(),
  /** UTF-8 size of that text. */
  state_bytes: z.number().int().optional(),
  /** The first characters of the state text. */
  state_preview: z.string().optional(),
  /**
   * SHA-256 of the work item's payload: its JSON with keys sorted and `submitted_at` left out (the
   * text itself when it is not JSON). The same item sent again has the same hash; a different
   * payload under the same id is a conflict (`conflicts`).
   */
  payload_sha256: z.string().optional(),
  /** The work item's text as it arrived, when at most `WORK_ITEM_KEPT_BYTES` (for a redecide). */
  work_item: z.string().optional(),
  /** UTF-8 size of the work item's text. */
  work_item_bytes: z.number().int().optional(),
  /** Set on an outcome that replaced another (a redecide, a resubmission with the supersede marker). */
  supersedes: OutcomeSupersedesSchema.optional(),
  /** The outcomes it replaced, oldest first (at most `OUTCOME_HISTORY_ENTRIES`). */
  history: z.array(OutcomeHistoryEntrySchema).optional(),
  /** Work items that came under this id with another payload, first ones kept. */
  conflicts: z.array(OutcomeConflictSchema).optional(),
  /**
   * Conflicting arrivals recorded: each distinct payload once while `conflicts` has room, then
   * every arrival.
   */
  conflict_count: z.number().int().optional(),
  /**
   * Set on a `decided` item that the policy's audit sampling (`audit_rate`, or `audit_strata` by
   * confidence) sent to review as well (unbiased labels for `decisions calibrate`): it waits under
   * `<policy>#audit` of the by-status index ({@link AUDIT_QUEUE}) while its automated answers stand.
   */
  audit: z
    .object({
      /**
       * The item's probability of being audited when it was decided: the policy's `audit_rate`, or
       * the rate of the `audit_strata` stratum its confidence fell in. Its labels weigh 1/`rate`.
       */
      rate: z.number().min(0).max(1),
      /** The item's draw in [0, 1) from the sha256 of policy and id (audited when below `rate`). */
      draw: z.number().min(0).max(1),
      /**
       * With `audit_strata`: the stratum (its index in the policy's list, and its `below` bound,
       * absent on the last) and the confidence that chose it (the lowest probability among the
       * model's answers). Absent: a uniform `audit_rate`.
       */
      stratum: z
        .object({
          index: z.number().int().nonnegative(),
          below: z.number().min(0).max(1).optional(),
          confidence: z.number().min(0).max(1),
        })
        .optional(),
    })
    .optional(),
});

/**
 * The by-status index partition suffix of audit items waiting for review: `<policy>#audit`
 * (their status stays `decided`; the only `policy_status` that is not `<policy>#<status>`).
 */
export const AUDIT_QUEUE = "audit";

/** An outcome item. */
export type Outcome = z.infer<typeof OutcomeSchema>;
/** One question's answer in an outcome. */
export type OutcomeAnswer = z.infer<typeof OutcomeAnswerSchema>;
/** Where an outcome's record came from. */
export type OutcomeSource = z.infer<typeof OutcomeSourceSchema>;

// Reviews by a person (`decisions outcomes review`, core/outcomes `reviewOutcome`). Added beside the
// pipeline's schema so the decide function's types stay as they are: it never writes these.

/** The status a person gives an outcome they reviewed; the pipeline never writes it. */
export const REVIEWED_STATUS = "reviewed";

/** Every status a stored outcome can have: the pipeline's {@link OUTCOME_STATUSES} and `reviewed`. */
export const STORED_OUTCOME_STATUSES = [...OUTCOME_STATUSES, REVIEWED_STATUS] as const;

/** The status of a stored outcome. */
export type StoredOutcomeStatus = (typeof STORED_OUTCOME_STATUSES)[number];

const answerValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * One question's answer in a stored outcome: as the pipeline wrote it, or set by a reviewer
 * (`source: "human"`; the model's own answer kept in `model_answer`; probability and distribution
 * stay the model's).
 */
export const StoredOutcomeAnswerSchema = OutcomeAnswerSchema.extend({
  source: z.enum(["model", "rule", "fallback", "human"]),
});

/** A person's review of an outcome. */
export const OutcomeReviewSchema = z.object({
  /** Who reviewed it (`--by`), when given. */
  by: z.string().optional(),
  /** When (ISO-8601 UTC); also the outcome's new `updated_at`. */
  at: z.string(),
  /** The status before the review. */
  previous_status: z.enum(STORED_OUTCOME_STATUSES),
  /** `updated_at` before the review: the version the review was conditional on. */
  previous_updated_at: z.string(),
  /** Question id → the answer the person gave. */
  answers: z.record(z.string(), answerValue),
  /**
   * Question id → the answer that stood before the review, and who had set it: its source, and
   * for a person's answer their name (`by`, when the review that gave it was named).
   */
  previous_answers: z.record(
    z.string(),
    z.object({
      answer: answerValue,
      source: StoredOutcomeAnswerSchema.shape.source,
      by: z.string().optional(),
    }),
  ),
  /** The policy version and hash the answers were checked against. */
  policy_version: z.union([z.string(), z.number()]).optional(),
  policy_sha256: z.string().optional(),
  /**
   * The questions still waiting for a human answer after this review (empty or absent: none,
   * the status became `reviewed`). A partial review keeps the item in the review queue.
   */
  remaining: z.array(z.string()).optional(),
  /**
   * Set on an amendment: a review that changed an answer a person had given (an item already
   * `reviewed`, or a question a person answered), which is written only when asked for (`--amend`,
   * `amend: true`).
   */
  amendment: z.boolean().optional(),
  /**
   * The `at` of this reviewer's own earlier reviews whose answers to the same questions this one
   * replaced in `reviews` (a reviewer keeps one entry per question; another person's is never
   * touched). What those answers were stays in `previous_answers`.
   */
  replaces_own: z.array(z.string()).optional(),
});

/**
 * Entries an outcome's `reviews` holds before its oldest superseded entries (every answer of it
 * replaced by a later entry) are dropped. Entries whose answers stand are never dropped (at most
 * one per question), so a policy of more questions may keep more.
 */
export const MAX_KEPT_REVIEWS = 20;

/**
 * Bytes of JSON an outcome's `reviews` may take at most (the outcome stays far below DynamoDB's
 * 400 KB): superseded entries are dropped, oldest first, to stay within it; a review is refused
 * (`ReviewHistoryFullError`) only when the entries whose answers stand pass it alone.
 */
export const MAX_KEPT_REVIEWS_BYTES = 64 * 1024;

/**
 * An outcome as stored: written by the pipeline, or reviewed by a person. A review that leaves
 * a question on its fallback keeps the status (the item stays in the review queue); the status
 * becomes `reviewed` when every question that stood on its fallback has a human answer.
 */
export const StoredOutcomeSchema = OutcomeSchema.extend({
  status: z.enum(STORED_OUTCOME_STATUSES),
  answers: z.record(z.string(), StoredOutcomeAnswerSchema).optional(),
  /** The newest review. */
  review: OutcomeReviewSchema.optional(),
  /**
   * Every review, oldest first: a reviewer's new answer to a question replaces their own earlier
   * one (`replaces_own`). Bounded by {@link MAX_KEPT_REVIEWS} entries and
   * {@link MAX_KEPT_REVIEWS_BYTES}: past them the oldest superseded entries go (`reviews_dropped`);
   * an entry whose answer stands is never dropped.
   */
  reviews: z.array(OutcomeReviewSchema).optional(),
  /**
   * How many superseded reviews were dropped from `reviews` to bound it (what each answered stays
   * in the `previous_answers` of the entry that replaced it). An earlier version dropped the
   * oldest entries after the first, superseded or not, and counted them here too.
   */
  reviews_dropped: z.number().int().nonnegative().optional(),
});

/** An outcome as stored (see {@link StoredOutcomeSchema}). */
export type StoredOutcome = z.infer<typeof StoredOutcomeSchema>;
/** A person's review of an outcome. */
export type OutcomeReview = z.infer<typeof OutcomeReviewSchema>;
