import type { ChunkedPrompt } from "../sequence/ChunkedSequence.js";
import { commonPrefixLength } from "../sequence/commonPrefixLength.js";
import { reusablePrefix } from "../sequence/reusablePrefix.js";
import type { PromptMeasure } from "../types.js";
import type { PreparedPrompt } from "./preparePrompts.js";

/**
 * Token counts of a batch's prompts (in evaluation order, as `preparePrompts` returns them): each
 * question's longest prompt, and what the batch evaluates when nothing is cached — every prompt less
 * what it reuses of the one before it ({@link reusedBetween}: the state once for the questions on
 * it).
 */
export function measurePrompts(
  prompts: readonly Pick<
    PreparedPrompt,
    "tokens" | "preambleBoundary" | "sharedBoundary" | "questionIndex"
  >[],
): PromptMeasure {
  const questionTokens: number[] = [];
  let batchTokens = 0;
  prompts.forEach((prompt, index) => {
    const previous = prompts[index - 1];
    questionTokens[prompt.questionIndex] = Math.max(
      questionTokens[prompt.questionIndex] ?? 0,
      prompt.tokens.length,
    );
    batchTokens += prompt.tokens.length - (previous === undefined ? 0 : reusedBetween(previous, prompt));
  });
  return { questionTokens: Array.from(questionTokens, (tokens) => tokens ?? 0), batchTokens };
}

/**
 * Tokens `next` reuses when evaluated right after `previous`: the last of its chunk boundaries at
 * which `previous` also ended a chunk, within the tokens both share; 0 when there is none.
 */
export function reusedBetween(previous: ChunkedPrompt, next: ChunkedPrompt): number {
  return reusablePrefix(
    [next.preambleBoundary, next.sharedBoundary],
    commonPrefixLength(previous.tokens, next.tokens),
    [previous.preambleBoundary, previous.sharedBoundary],
  );
}

/** Tokens every prompt of a batch shares with the first one at a chunk boundary (evaluated once for all). */
export function sharedPrefixTokens(prompts: readonly ChunkedPrompt[]): number {
  const [first, ...others] = prompts;
  if (first === undefined) return 0;
  return Math.min(first.sharedBoundary, ...others.map((prompt) => reusedBetween(first, prompt)));
}
