/**
 * The System One wire format (docs/http-api.md): one state, typed questions by id
 * (`choice`, `score`, `noul`), one answer per question.
 */
import { z } from "zod";
import { DEFAULT_REQUEST_LIMITS, SYSTEM_ONE_MAX_LABELS } from "./constants.js";
import { isIntegerLikeKey } from "./isIntegerLikeKey.js";
import { checkQuestionExtensions, DebiasInfoSchema, questionExtensionFields } from "./questionExtensions.js";
import {
  closedObject,
  countedArray,
  keyedObject,
  mustBe,
  requestId,
  requestText,
  stateSchema,
  uniqueItems,
} from "./requestSchemaParts.js";
import type { RequestSchemaOptions } from "./types.js";

const QUESTION_FIELDS = ["type", "instructions", "criteria", ...Object.keys(questionExtensionFields)];
const TYPES = ["choice", "score", "noul"] as const;
const CHOICE_CRITERIA = "a {label: description | null} object or an array of labels";

/**
 * Builds the System One request schema for the given limits (defaults: the format's own):
 * 1 to `maxQuestions` questions; `choice` criteria a `{label: description | null}` map or an
 * array of unique labels, 1 to 255 and at most `maxOptions`; `score` criteria 2+ level
 * descriptions (same bound); `noul` criteria absent or `{true?, false?}`. Every question may add
 * the optional extensions `layout`, `debias` and `debias_rotations` (see `questionExtensions`).
 */
export function systemOneRequestSchema(options: RequestSchemaOptions = {}) {
  const find = options.findReservedText;
  const maxOptions = options.maxOptions ?? DEFAULT_REQUEST_LIMITS.maxOptions;
  const maxLabels = Math.min(SYSTEM_ONE_MAX_LABELS, maxOptions);
  const maxReason =
    maxLabels < SYSTEM_ONE_MAX_LABELS
      ? (options.maxOptionsReason ?? "the configured limit")
      : "the API's limit";
  const labels = { min: 1, max: maxLabels, what: "labels", maxReason };
  const choiceCriteria = z.union(
    [
      countedArray(requestId(find), labels).superRefine(
        uniqueItems(
          "label",
          (label) => label,
          (index) => [index],
        ),
      ),
      keyedObject(
        requestId(find, "a label must not be empty"),
        z.union([z.null(), requestText(find)], { error: mustBe("a string or null") }),
        labels,
        CHOICE_CRITERIA,
      ),
    ],
    {
      error: (issue) =>
        issue.input === undefined ? `is required: ${CHOICE_CRITERIA}` : mustBe(CHOICE_CRITERIA)(issue),
    },
  );
  const choice = closedObject({
    type: z.literal("choice"),
    instructions: requestText(find),
    criteria: choiceCriteria,
    ...questionExtensionFields,
  }).superRefine((question, ctx) => {
    const labels = Array.isArray(question.criteria) ? question.criteria : Object.keys(question.criteria);
    checkQuestionExtensions(question, labels.length, ctx);
    // The options are offered in the criteria's written order, and a parsed JSON object has lost
    // it for integer-like keys ({"1": …, "0": …} reads back as {"0": …, "1": …}, the prompt of the
    // list ["0", "1"]). Refused, as the policy loader refuses them, rather than silently reordered.
    if (!Array.isArray(question.criteria)) {
      for (const label of labels.filter(isIntegerLikeKey)) {
        ctx.addIssue({
          code: "custom",
          path: ["criteria", label],
          message: `label "${label}" is integer-like: a JSON object cannot keep its written order; send the labels as a list (["1", "0"]) or use other labels`,
        });
      }
    }
  });
  const score = closedObject({
    type: z.literal("score"),
    instructions: requestText(find),
    criteria: countedArray(requestText(find), { min: 2, max: maxLabels, what: "levels", maxReason }),
    ...questionExtensionFields,
  }).superRefine((question, ctx) => checkQuestionExtensions(question, question.criteria.length, ctx));
  const noul = closedObject(
    {
      type: z.literal("noul"),
      instructions: requestText(find),
      criteria: closedObject({
        true: requestText(find).optional(),
        false: requestText(find).optional(),
      }).optional(),
      ...questionExtensionFields,
    },
    QUESTION_FIELDS,
  ).superRefine((question, ctx) => checkQuestionExtensions(question, 2, ctx));
  const question = z.discriminatedUnion("type", [choice, score, noul], {
    error: (issue) => {
      const type = (issue.input as { type?: unknown } | undefined)?.type;
      if (issue.code !== "invalid_union") return mustBe("an object")(issue);
      return type === undefined
        ? `is required (one of ${TYPES.join(", ")})`
        : `must be one of ${TYPES.join(", ")}, got ${JSON.stringify(type)}`;
    },
  });
  return closedObject({
    model: z.string({ error: mustBe("a string") }).optional(),
    state: stateSchema(find),
    questions: keyedObject(
      requestId(find, "a question id must not be empty"),
      question,
      { min: 1, max: options.maxQuestions ?? DEFAULT_REQUEST_LIMITS.maxQuestions, what: "questions" },
      "an object of questions by id",
    ),
  });
}

/** A System One request with the format's own limits. */
export const SystemOneRequestSchema = systemOneRequestSchema();

/** A System One request `{model?, state, questions}`; questions are answered in request order. */
export type SystemOneRequest = z.infer<typeof SystemOneRequestSchema>;

/** One System One question: `choice`, `score` or `noul`. */
export type SystemOneQuestion = SystemOneRequest["questions"][string];

/** Pick one label among 1–255. Criteria map labels to descriptions (null: the label speaks for itself), or list labels. */
export type ChoiceQuestion = Extract<SystemOneQuestion, { type: "choice" }>;

/** Rate on a scale: criteria[i] describes level i; 2+ levels. */
export type ScoreQuestion = Extract<SystemOneQuestion, { type: "score" }>;

/** Yes or no. Criteria optionally describe what true and false mean. */
export type NoulQuestion = Extract<SystemOneQuestion, { type: "noul" }>;

const probability = z.number().min(0).max(1);

/**
 * Fields this adapter adds to System One's answers (clients of the plain API ignore them): the
 * prompt an answer was scored on, so a caller can record and compare it, and the debiasing report.
 * Absent on a single-label choice, which is answered without the model.
 */
const answerExtensions = {
  prompt_version: z.string().optional().describe("The prompt layout the answer was scored with."),
  prompt_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional()
    .describe(
      "SHA-256 of the rendered prompt (SemIf's prompt_sha256); with debias, of the prompt with the options in the given order.",
    ),
  debias: DebiasInfoSchema.optional(),
};

/** The answer to a `choice` question. */
export const ChoiceAnswerSchema = z.object({
  type: z.literal("choice"),
  /** The most probable label (ties go to the label offered first). */
  choice: z.string().describe("The most probable label (ties go to the label offered first)."),
  confidence: probability.describe("Probability of the chosen label."),
  probabilities: z
    .record(z.string(), probability)
    .describe("Label → probability, keys exactly the offered labels, summing to 1."),
  ...answerExtensions,
});

/** The answer to a `score` question. */
export const ScoreAnswerSchema = z.object({
  type: z.literal("score"),
  score: z.number().describe("Expected level, Σ i·p_i."),
  confidence: probability.describe("Probability of the most probable level."),
  legend: z.array(z.string()).describe("The level descriptions, as given."),
  probabilities: z.record(z.string(), probability).describe('Level ("0", "1", …) → probability.'),
  ...answerExtensions,
});

/** The answer to a `noul` (yes/no) question. */
export const NoulAnswerSchema = z.object({
  type: z.literal("noul"),
  noul: probability.describe("P(yes)."),
  ...answerExtensions,
});

/** The answer to one System One question. */
export const SystemOneAnswerSchema = z.discriminatedUnion("type", [
  ChoiceAnswerSchema,
  ScoreAnswerSchema,
  NoulAnswerSchema,
]);

/** The System One response: one answer per question, in request order. */
export const SystemOneResponseSchema = z.object({
  model: z.string(),
  /** Beyond System One: SHA-256 of the served GGUF (the file its manifest records), lower-case hex. */
  model_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Beyond System One: the adapter build that answered (package version, llama.cpp release and binary). */
  adapter_build: z.string().max(256).optional(),
  answers: z.record(z.string(), SystemOneAnswerSchema),
  usage: z.object({
    input_tokens: z.number().int().min(0),
    output_tokens: z.literal(0),
    /**
     * Beyond System One (its clients ignore it): tokens the engine evaluated for this request,
     * summed over its questions' prompts (a debiased question: over its rotations).
     */
    evaluated_tokens: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Beyond System One: prompt tokens the engine evaluated for this request."),
    /**
     * Beyond System One: tokens of those prompts served from what was already evaluated — the
     * state prefix the request's questions share, or the engine's cache of earlier states — rather
     * than evaluated again. `evaluated_tokens + cached_tokens` is every prompt's length.
     */
    cached_tokens: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "Beyond System One: prompt tokens reused from already evaluated state (shared prefix or cache), not evaluated again.",
      ),
  }),
});

/** The answer to a `choice` question. */
export type ChoiceAnswer = z.infer<typeof ChoiceAnswerSchema>;
/** The answer to a `score` question. */
export type ScoreAnswer = z.infer<typeof ScoreAnswerSchema>;
/** The answer to a `noul` question. */
export type NoulAnswer = z.infer<typeof NoulAnswerSchema>;
/** The answer to one System One question. */
export type SystemOneAnswer = z.infer<typeof SystemOneAnswerSchema>;
/** A System One response. */
export type SystemOneResponse = z.infer<typeof SystemOneResponseSchema>;
