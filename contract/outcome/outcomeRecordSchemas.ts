import { z } from "zod";

/**
 * Bytes of a work item's text an outcome keeps in `work_item` (what `decisions outcomes redecide`
 * sends again). A larger item keeps only its size (`work_item_bytes`) and hash: it must be sent
 * again by its producer (`decisions submit --supersede`). 16 KiB keeps most items whole while an
 * outcome stays far below DynamoDB's 400 KB (and its write cost near that of the answers alone).
 */
export const WORK_ITEM_KEPT_BYTES = 16 * 1024;

/** Earlier outcomes kept in an outcome's `history` (the oldest dropped first). */
export const OUTCOME_HISTORY_ENTRIES = 8;

/** Payload conflicts kept in an outcome's `conflicts` (later ones only counted in `conflict_count`). */
export const OUTCOME_CONFLICT_ENTRIES = 10;

/** Code points kept of a conflicting work item's text in its conflict record. */
export const CONFLICT_PREVIEW_CHARS = 512;

/**
 * The SQS message attribute that asks the decide path to supersede the outcome standing for the
 * item (String): the `updated_at` of the outcome to replace (`decisions outcomes redecide`: the
 * version it read), or {@link SUPERSEDE_ANY} (`decisions submit --supersede`: whatever stands when
 * the decide path reads it). Without it, an outcome that stands is never replaced.
 */
export const SUPERSEDE_ATTRIBUTE = "decisions.supersede";

/** {@link SUPERSEDE_ATTRIBUTE}'s value that supersedes whichever outcome the decide path reads. */
export const SUPERSEDE_ANY = "*";

/**
 * The prefix of a {@link SUPERSEDE_ATTRIBUTE} value that may replace an outcome a person reviewed
 * (`replace-reviews:<updated_at>` or `replace-reviews:*`; `decisions outcomes redecide
 * --replace-reviews`). Without it a supersede never replaces an outcome with a person's review
 * (status `reviewed`, or a partial review): the reviewed outcome stays and the supersede is
 * refused with a reason. The review that is replaced is kept in the new outcome's `history`.
 */
export const SUPERSEDE_REPLACE_REVIEWS_PREFIX = "replace-reviews:";

const answerValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * An earlier outcome of the item, as kept in a later outcome's `history` when a redecide or a
 * resubmission with the supersede marker replaced it: what was decided, by whom, when, and why —
 * distributions, timings and the request are not kept (bounded).
 */
export const OutcomeHistoryEntrySchema = z.object({
  status: z.string(),
  reason: z.string().optional(),
  /**
   * Question id → the answer that stood and who had set it (`model`, `rule`, `fallback`, `human`;
   * for a person's answer their name in `by`, when the review was named).
   */
  answers: z
    .record(
      z.string(),
      z.object({
        answer: answerValue,
        source: z.string(),
        probability: z.number().optional(),
        by: z.string().optional(),
      }),
    )
    .optional(),
  policy_version: z.union([z.string(), z.number()]).optional(),
  policy_sha256: z.string().optional(),
  model: z.string().optional(),
  model_sha256: z.string().optional(),
  adapter_build: z.string().optional(),
  payload_sha256: z.string().optional(),
  /** The SQS message that had decided it. */
  message_id: z.string().optional(),
  /** Who reviewed it last, when a person had (each reviewer's answers are in `reviews`). */
  reviewed_by: z.string().optional(),
  /**
   * The people's reviews it held, oldest first, each reviewer's answers under their name (bounded
   * as the outcome's own `reviews` were): what a redecide that replaced reviews keeps of them.
   */
  reviews: z
    .array(
      z.object({
        by: z.string().optional(),
        at: z.string(),
        answers: z.record(z.string(), answerValue),
        amendment: z.boolean().optional(),
      }),
    )
    .optional(),
  /** Superseded reviews that had been dropped from its `reviews` to bound them. */
  reviews_dropped: z.number().int().nonnegative().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** When the outcome that replaced it was written. */
  superseded_at: z.string(),
});

/** What a superseding outcome replaced, and who asked for it. */
export const OutcomeSupersedesSchema = z.object({
  /** `updated_at` of the outcome replaced (the version the write was conditional on). */
  updated_at: z.string(),
  status: z.string(),
  /** The marker the message carried: the version asked for, or `*`. */
  requested: z.string(),
});

/**
 * A work item that arrived under an existing (policy, id) with a different payload: recorded on the
 * outcome that stands (which is not replaced), for a person to look at.
 */
export const OutcomeConflictSchema = z.object({
  /** SHA-256 of the conflicting payload (see `payload_sha256`). */
  payload_sha256: z.string(),
  /** When the decide path met it. */
  at: z.string(),
  /** The SQS message it came in. */
  message_id: z.string().optional(),
  /** The first characters of its text. */
  preview: z.string().optional(),
  /** UTF-8 size of its text. */
  bytes: z.number().int().optional(),
});

/** An earlier outcome kept in `history`. */
export type OutcomeHistoryEntry = z.infer<typeof OutcomeHistoryEntrySchema>;
/** A payload conflict kept in `conflicts`. */
export type OutcomeConflict = z.infer<typeof OutcomeConflictSchema>;
