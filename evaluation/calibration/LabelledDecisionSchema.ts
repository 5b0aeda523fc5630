import { z } from "zod";
import { stateSchema } from "../../contract/wire/requestSchemaParts.js";

/** An answer value as outcomes store it: a label (choice), a level (score) or a boolean (noul). */
const AnswerValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** One labelled question of a reviewed work item. */
export const LabelledAnswerSchema = z.object({
  /**
   * The distribution the outcome recorded for the question (`answers.<q>.distribution`): label →
   * probability, after the policy's temperature. Keys are the question's labels (score: "0", "1",
   * …; noul: "true", "false"); a distribution cut to its most probable labels may lack some.
   */
  distribution: z.record(z.string(), z.number().min(0).max(1)),
  /** The correct answer, as the human set it: a label, a level, or true/false. */
  label: AnswerValueSchema,
  /**
   * The temperature the policy applied to `distribution` when it decided. Absent: the policy
   * file's current temperature for the question, if `policy_version` is the file's version (or
   * absent); otherwise the line is refused, since the distribution's shape cannot be told.
   */
  temperature: z.number().positive().optional(),
  /** What the model answered (the outcome's answer or `model_answer`). Informational. */
  model_answer: AnswerValueSchema.optional(),
});

/**
 * One line of a labelled-data JSONL file: a reviewed work item with, per question a human
 * answered, the model's distribution and the human's answer. What `decisions outcomes export
 * --labelled` writes and `decisions calibrate` reads (format: evaluation/README.md).
 */
export const LabelledDecisionSchema = z.object({
  /** The policy's name. Lines of other policies are skipped by `calibrate`. */
  policy: z.string().min(1),
  /** The work item's id (the held-out split is drawn on it). */
  id: z.string().min(1),
  /** The policy version the outcome was decided under. */
  policy_version: z.union([z.string(), z.number()]).optional(),
  /** Who reviewed it, and when (ISO-8601). Informational. */
  reviewed_by: z.string().optional(),
  reviewed_at: z.string().optional(),
  /**
   * The work item's state as the endpoint was given it (text, or a JSON object or array). Only
   * needed to score the items again (`calibrate --model`); the outcomes export does not write it.
   */
  state: stateSchema(undefined).optional(),
  /**
   * Set on an audit item: a `decided` item the policy's `audit_rate` sent to review as well, with
   * `rate` its probability of being audited. Its labels weigh 1/`rate` in `calibrate` (they stand
   * for every decided item they were drawn from) and they alone estimate the accuracy of automated
   * decisions. Absent: a fallback, reviewed because the model was unsure (weight 1).
   */
  audit: z.object({ rate: z.number().gt(0).max(1) }).optional(),
  /** Question id → its labelled answer; only questions a human answered. */
  questions: z.record(z.string(), LabelledAnswerSchema),
});

/** One labelled question. */
export type LabelledAnswer = z.infer<typeof LabelledAnswerSchema>;
/** One line of labelled data. */
export type LabelledDecision = z.infer<typeof LabelledDecisionSchema>;
