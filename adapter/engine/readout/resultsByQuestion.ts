import type { PreparedPrompt } from "../prompt/preparePrompts.js";
import type { DecisionQuestion, DecisionResult } from "../types.js";
import { combineRotations } from "./combineRotations.js";

/**
 * One result per question, in the batch's order, from the results of its prompts (`scored[i]` of
 * `prompts[i]`): a debiased question's rotations combined ({@link combineRotations}), another's one
 * result as it is; each charged the time the batch waited for a sequence.
 */
export function resultsByQuestion(
  questions: readonly DecisionQuestion[],
  prompts: readonly PreparedPrompt[],
  scored: readonly DecisionResult[],
  waitedMs: number,
): DecisionResult[] {
  return questions.map((question, index) => {
    const rotations = scored.filter((_, at) => prompts[at]?.questionIndex === index);
    const result =
      question.debias === "cyclic"
        ? combineRotations(question.options, rotations)
        : (rotations[0] as DecisionResult);
    result.timing.queue_ms = waitedMs;
    result.timing.total_ms += waitedMs;
    return result;
  });
}
