import type { PromptMeasure } from "../engine/types.js";
import type { EngineFieldMap } from "./engineFieldMap.js";
import type { Problem, RequestLimits } from "./types.js";

/**
 * Checks measured prompt sizes against the token budgets: each prompt at most
 * `limits.maxPromptTokens` (never more than the engine's context), the whole request (shared prefix
 * once plus each question's suffix) at most `limits.maxRequestTokens`.
 * @returns one problem per prompt over budget and one for the request, named in the caller's fields.
 */
export function checkTokenBudget(
  measure: PromptMeasure,
  fields: EngineFieldMap,
  limits: Pick<RequestLimits, "maxPromptTokens" | "maxRequestTokens">,
): Problem[] {
  const problems: Problem[] = [];
  measure.questionTokens.forEach((tokens, index) => {
    if (tokens > limits.maxPromptTokens) {
      problems.push({
        field: fields.question(index),
        message: `the prompt needs ${tokens} tokens, over the limit of ${limits.maxPromptTokens} tokens per prompt`,
      });
    }
  });
  if (measure.batchTokens > limits.maxRequestTokens) {
    problems.push({
      field: fields.request,
      message: `the request needs ${measure.batchTokens} tokens, over the limit of ${limits.maxRequestTokens} tokens per request`,
    });
  }
  return problems;
}
