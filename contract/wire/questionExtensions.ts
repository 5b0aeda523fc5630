/**
 * Optional per-question fields shared by SemIf decisions and System One questions (extensions of
 * both formats; a request without them is answered as before): the prompt layout and cyclic
 * option-order debiasing. And the fields an answer carries when they were used.
 */
import { z } from "zod";
import { mustBe } from "./requestSchemaParts.js";

/** The prompt layouts a question may ask for. */
export const QUESTION_LAYOUTS = ["direct-options-v1", "question-first-v1", "auto"] as const;

const layoutMessage = `must be one of ${QUESTION_LAYOUTS.join(", ")}`;

/** The request fields, to spread into a question's object shape. */
export const questionExtensionFields = {
  layout: z
    .enum(QUESTION_LAYOUTS, { error: (issue) => (issue.input === undefined ? "is required" : layoutMessage) })
    .optional()
    .describe(
      "Prompt layout: direct-options-v1 (state first, SemIf's format, the default), question-first-v1 (criterion and options first, so every item asked this question shares them), or auto (the cheaper of the two from token counts). Results name the layout in prompt_version.",
    ),
  debias: z
    .literal("cyclic", { error: 'must be "cyclic"' })
    .optional()
    .describe(
      "cyclic: score the question under cyclic rotations of its options on the same state and average each option's probability (removes most option-position bias); the answer reports the order sensitivity.",
    ),
  debias_rotations: z
    .int({ error: mustBe("an integer") })
    .min(1, { error: "must be at least 1" })
    .optional()
    .describe("With debias: how many rotations, evenly spaced, 1 to the number of options. Default: all."),
};

/** The extension fields as a question carries them. */
export interface QuestionExtensions {
  layout?: (typeof QUESTION_LAYOUTS)[number];
  debias?: "cyclic";
  debias_rotations?: number;
}

/**
 * The issues of extension fields that depend on the question's options: `debias_rotations`
 * needs `debias` and may not exceed the number of options.
 */
export function checkQuestionExtensions(
  question: QuestionExtensions,
  optionCount: number,
  ctx: z.RefinementCtx,
): void {
  const rotations = question.debias_rotations;
  if (rotations === undefined) return;
  if (question.debias === undefined) {
    ctx.addIssue({ code: "custom", path: ["debias_rotations"], message: 'needs debias "cyclic"' });
  } else if (rotations > optionCount) {
    ctx.addIssue({
      code: "custom",
      path: ["debias_rotations"],
      message: `must be at most the number of options (${optionCount}), got ${rotations}`,
    });
  }
}

/** What an answer says about its debiasing (present when the question asked for it). */
export const DebiasInfoSchema = z
  .object({
    method: z.literal("cyclic"),
    rotations: z.int().min(1).describe("Rotations scored (offsets ⌊j·n/k⌋ of the given order)."),
    order_sensitivity: z
      .number()
      .min(0)
      .max(1)
      .describe("Largest spread (max − min) of one option's probability across the rotations."),
  })
  .describe("How the answer was debiased and how much the options' order mattered.");
