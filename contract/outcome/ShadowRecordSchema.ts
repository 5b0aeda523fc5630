import { z } from "zod";
import { FAILURE_RECORD_TTL_ATTRIBUTE } from "../failures/FailureRecordSchema.js";
import { OUTCOME_STATUSES, OutcomeAnswerSchema, OutcomeSchema } from "./OutcomeSchema.js";

/**
 * Shadow records: what a candidate — another model endpoint and/or another version of the policy —
 * answered for an item that the live pipeline decided. The decide function writes one, for a
 * sampled share of groups, after the live outcome is written (never delaying or failing it); `decisions
 * shadow report` compares them with the live outcomes before the candidate is promoted.
 *
 * A shadow record is shaped like an outcome but is never one. It lives in the outcomes table under
 * its own partition ({@link SHADOW_RECORD_PREFIX}`<policy>`, which no policy name can take: they
 * start with a lower-case letter), so no reader of a policy's partition sees it; it has no
 * `policy_status`, so the `by-status` index (the review queue) never holds it; and it carries
 * {@link SHADOW_RECORD_KIND} in `record_kind`, which no outcome has, so the outcomes Pipe leaves
 * it out of the outcome events, as it does failure records. It expires
 * ({@link SHADOW_RECORD_TTL_ATTRIBUTE}, the table's TTL attribute).
 */

/** The start of every shadow record's partition key: `_shadow#<policy>`. */
export const SHADOW_RECORD_PREFIX = "_shadow#";

/** `record_kind` of a shadow record (an outcome has no `record_kind`). */
export const SHADOW_RECORD_KIND = "shadow";

/** The attribute holding a shadow record's expiry (epoch seconds): the outcomes table's TTL attribute. */
export const SHADOW_RECORD_TTL_ATTRIBUTE = FAILURE_RECORD_TTL_ATTRIBUTE;

/**
 * How long a shadow record is kept after it was written unless its writer says otherwise: long
 * enough to gather a comparison over weeks of traffic and have people review some of those items.
 */
export const SHADOW_RECORD_RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** Code points kept of a candidate's failure reason. */
export const SHADOW_FAILURE_REASON_CHARS = 1000;

/**
 * The key of a shadow record: partition `_shadow#<policy>`, sort key
 * `<decided_at>#<candidate>#<item id>`, so that a policy's shadow records are read in time order
 * and from a time on (`decisions shadow report --since`). A redelivered group may write the same
 * item's shadow record twice with two times: readers keep the newest per candidate and item.
 */
export function shadowKeyOf(
  policy: string,
  decidedAt: string,
  candidate: string,
  id: string,
): { policy: string; id: string } {
  return { policy: shadowPartitionOf(policy), id: `${decidedAt}#${candidate}#${id}` };
}

/** The partition key of a policy's shadow records. */
export function shadowPartitionOf(policy: string): string {
  return `${SHADOW_RECORD_PREFIX}${policy}`;
}

/** Whether a partition key value (`policy`) is a shadow record's rather than an outcome's. */
export function isShadowRecordKey(policy: unknown): boolean {
  return typeof policy === "string" && policy.startsWith(SHADOW_RECORD_PREFIX);
}

/** Candidate names: letters, digits, `.`, `_`, `-` (they appear in keys, file names and reports). */
export const CANDIDATE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What the candidate was: its name and what answered (as an outcome records what decided it). */
export const ShadowCandidateSchema = z.object({
  /** The candidate's name as configured (e.g. `qwen3-2b-q4`, `policy-v4`). */
  name: z.string().regex(CANDIDATE_NAME_PATTERN),
  /** The endpoint asked (SageMaker endpoint name or local URL); absent when only the policy differs. */
  endpoint: z.string().optional(),
  /** Model identity, SHA-256 of its GGUF and adapter build, as the candidate endpoint reported them. */
  model: z.string().optional(),
  model_sha256: z.string().optional(),
  adapter_build: z.string().optional(),
  /** The policy version and hash the candidate's thresholds, rules and temperatures came from. */
  policy_version: z.union([z.string(), z.number()]).optional(),
  policy_sha256: z.string().optional(),
  /** As an outcome's `prompt_sha256`. */
  prompt_sha256: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
});

/**
 * What the candidate would have decided: an outcome's decision part, at the candidate's
 * thresholds and rules (the status it would have had, every answer with its probability and
 * distribution, the rules that fired).
 */
export const ShadowResultSchema = z.object({
  status: z.enum(OUTCOME_STATUSES),
  reason: z.string().optional(),
  answers: z.record(z.string(), OutcomeAnswerSchema).optional(),
  rules_fired: OutcomeSchema.shape.rules_fired,
});

/** Why the candidate gave no result (it failed or ran out of its budget); the live outcome stands. */
export const ShadowFailureSchema = z.object({
  /** The error's class name (`EndpointTimeoutError`, …). */
  error: z.string(),
  /** Why, cut to {@link SHADOW_FAILURE_REASON_CHARS} code points. */
  reason: z.string(),
});

/** A shadow record as stored. Exactly one of `result` and `failure` is set. */
export const ShadowRecordSchema = z
  .object({
    /** `_shadow#<policy>` ({@link shadowKeyOf}). */
    policy: z.string().startsWith(SHADOW_RECORD_PREFIX),
    /** `<decided_at>#<candidate>#<item id>`. */
    id: z.string().min(1),
    record_kind: z.literal(SHADOW_RECORD_KIND),
    /** The item's policy and id: the key of the live outcome it shadows. */
    item_policy: z.string().min(1),
    item_id: z.string().min(1),
    /** The live outcome's `updated_at` and status when the candidate was asked. */
    live_updated_at: z.string().optional(),
    live_status: z.string().optional(),
    candidate: ShadowCandidateSchema,
    result: ShadowResultSchema.optional(),
    failure: ShadowFailureSchema.optional(),
    /** The candidate's endpoint call, in milliseconds (as an outcome's timings). */
    timings: z
      .object({ endpoint_ms: z.number().optional(), endpoint_total_ms: z.number().optional() })
      .optional(),
    /**
     * The share of groups shadowed and this group's draw in [0, 1) (sampled when below `rate`):
     * deterministic by the group's key, salted apart from the audit draw.
     */
    sample: z.object({ rate: z.number().min(0).max(1), draw: z.number().min(0).max(1) }).optional(),
    /** ISO-8601 UTC time the candidate's result was built; the sort key starts with it. */
    decided_at: z.string(),
    /** Epoch seconds after which DynamoDB's TTL removes the record. */
    expires_at: z.number().int().optional(),
  })
  .refine((record) => (record.result === undefined) !== (record.failure === undefined), {
    message: "a shadow record holds either the candidate's result or its failure",
    path: ["result"],
  });

/** A shadow record as stored. */
export type ShadowRecord = z.infer<typeof ShadowRecordSchema>;
/** What answered in a shadow record. */
export type ShadowCandidate = z.infer<typeof ShadowCandidateSchema>;
/** What the candidate would have decided. */
export type ShadowResult = z.infer<typeof ShadowResultSchema>;
