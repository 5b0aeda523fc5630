/**
 * The SemIf wire format (docs/http-api.md): exactly one of `decision` or `decisions`;
 * `decision = {id, state, question, options: [{id, description}], temperature?}` (and the optional
 * extensions `layout`, `debias`, `debias_rotations`), option ids unique, 2+ options; `decisions` share one state and have unique ids. Answered with `{result}` or
 * `{results, timing}`, arrays in option order.
 */
import { z } from "zod";
import { DEFAULT_REQUEST_LIMITS } from "./constants.js";
import { checkQuestionExtensions, DebiasInfoSchema, questionExtensionFields } from "./questionExtensions.js";
import {
  closedObject,
  countedArray,
  requestId,
  requestText,
  stateSchema,
  uniqueItems,
} from "./requestSchemaParts.js";
import type { RequestSchemaOptions } from "./types.js";

const REQUEST_FIELDS = ["decision", "decisions"];

/** The schemas of a SemIf request, built for one set of limits (see {@link semIfRequestSchemas}). */
export interface SemIfRequestSchemas {
  /** `{decision}`. */
  single: ReturnType<typeof build>["single"];
  /** `{decisions: [...]}`, all on one state. */
  shared: ReturnType<typeof build>["shared"];
  /** Either; for types and the JSON Schema. Validate with `single` or `shared` for the clearest messages. */
  request: ReturnType<typeof build>["request"];
}

/**
 * Builds the SemIf request schemas for the given limits (defaults: the format's own, see
 * {@link DEFAULT_REQUEST_LIMITS}). Every problem is reported, each at its field's path; a repeated
 * option or decision id carries where it was first used in `params.first`.
 */
export function semIfRequestSchemas(options: RequestSchemaOptions = {}): SemIfRequestSchemas {
  return build(options);
}

function build(options: RequestSchemaOptions) {
  const find = options.findReservedText;
  const maxOptions = options.maxOptions ?? DEFAULT_REQUEST_LIMITS.maxOptions;
  const maxQuestions = options.maxQuestions ?? DEFAULT_REQUEST_LIMITS.maxQuestions;
  const option = closedObject({ id: requestId(find), description: requestText(find) });
  const decision = closedObject({
    id: requestId(find),
    state: stateSchema(find),
    question: requestText(find),
    options: countedArray(option, {
      min: 2,
      max: maxOptions,
      what: "options",
      maxReason: options.maxOptionsReason ?? "the API's limit",
    }).superRefine(
      uniqueItems(
        "option id",
        (item) => item.id,
        (index) => [index, "id"],
      ),
    ),
    temperature: z
      .number({ error: "must be a positive finite number" })
      .positive({ error: "must be a positive finite number" })
      .optional()
      .describe("Temperature applied to the option scores before the softmax (from calibration). Default 1."),
    ...questionExtensionFields,
  }).superRefine((decision, ctx) => checkQuestionExtensions(decision, decision.options.length, ctx));
  const single = closedObject({ decision }, REQUEST_FIELDS);
  const shared = closedObject(
    {
      decisions: countedArray(decision, { min: 1, max: maxQuestions, what: "decisions" })
        .superRefine(
          uniqueItems(
            "decision id",
            (item) => item.id,
            (index) => [index, "id"],
          ),
        )
        .superRefine((decisions, ctx) => {
          const reference = JSON.stringify(decisions[0]?.state);
          decisions.forEach((item, index) => {
            if (index > 0 && JSON.stringify(item.state) !== reference) {
              ctx.addIssue({ code: "custom", path: [index, "state"], message: SHARED_STATE_MESSAGE });
            }
          });
        }),
    },
    REQUEST_FIELDS,
  );
  return { single, shared, request: z.union([single, shared]) };
}

/** The problem of a `decisions` entry whose state differs from the first one's. */
export const SHARED_STATE_MESSAGE =
  "must equal decisions[0].state: every decision of a shared request has the same state";

/** A SemIf request with the format's own limits. */
export const SemIfRequestSchema = semIfRequestSchemas().request;

/** A SemIf request: `{decision}` or `{decisions}`. */
export type SemIfRequest = z.infer<typeof SemIfRequestSchema>;

/** One SemIf decision of a request. */
export type SemIfDecision = z.infer<ReturnType<typeof build>["single"]>["decision"];

/** How one decision's scores were read. */
export const ReadoutSchema = z.object({
  mode: z.enum(["label-only", "full-vocabulary"]),
  option_logits: z.enum([
    "log-probability (full vocabulary, position of the answer)",
    "log-probability relative to the slot set (softmax over slots)",
    "log of the probability averaged over option rotations",
  ]),
  labels: z.array(z.string()),
  label_tokens: z.array(z.number().int()),
  temperature: z.number(),
  slot_mass: z.number().nullable(),
});

/** Milliseconds spent in each phase of one decision. */
export const DecisionTimingSchema = z.object({
  tokenize_ms: z.number(),
  prefill_ms: z.number(),
  readout_ms: z.number(),
  queue_ms: z.number(),
  total_ms: z.number(),
});

/** The answer to one SemIf decision; arrays are in option order. */
export const DecisionResultSchema = z.object({
  id: z.string(),
  option_ids: z.array(z.string()),
  probabilities: z.array(z.number().min(0).max(1)),
  option_logits: z.array(z.number()),
  prompt_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  prompt_version: z.string(),
  readout: ReadoutSchema,
  input_tokens: z.number().int(),
  evaluated_tokens: z.number().int(),
  cached_tokens: z.number().int(),
  timing: DecisionTimingSchema,
  model: z.string(),
  debias: DebiasInfoSchema.extend({
    prompt_sha256s: z.array(z.string().regex(/^[0-9a-f]{64}$/)).describe("Each rotation's prompt hash."),
  }).optional(),
});

/** The SemIf response: `{result}` for a `decision`, `{results, timing}` for `decisions`. */
export const SemIfResponseSchema = z.union([
  z.object({ result: DecisionResultSchema }),
  z.object({
    results: z.array(DecisionResultSchema),
    timing: z.object({
      queue_ms: z.number(),
      total_ms: z.number(),
      shared_prefix_tokens: z.number().int(),
    }),
  }),
]);

/** A SemIf response. */
export type SemIfResponse = z.infer<typeof SemIfResponseSchema>;

/** The answer to one SemIf decision. */
export type SemIfDecisionResult = z.infer<typeof DecisionResultSchema>;
