import type { PreparedPrompt } from "./preparePrompts.js";
import type { PromptMeasure } from "./types.js";

/**
 * Token counts of a batch's prompts: each whole prompt, and what the batch evaluates when nothing
 * is cached (the shared state prefix once plus each question's own suffix).
 */
export function measurePrompts(
  prompts: readonly Pick<PreparedPrompt, "tokens" | "stateBoundary">[],
): PromptMeasure {
  const shared = Math.min(...prompts.map((prompt) => prompt.stateBoundary));
  const questionTokens = prompts.map((prompt) => prompt.tokens.length);
  const batchTokens = shared + questionTokens.reduce((sum, count) => sum + count - shared, 0);
  return { questionTokens, batchTokens };
}
