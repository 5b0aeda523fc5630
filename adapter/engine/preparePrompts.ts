import type { Token } from "node-llama-cpp";
import { checkDecisionBatch } from "./checkDecisionBatch.js";
import { commonPrefixLength } from "./commonPrefixLength.js";
import { InvalidBatchError, type InvalidDecisionError, TokenBudgetError } from "./errors.js";
import type { PromptVocabulary } from "./PromptVocabulary.js";
import { type RenderedPrompt, renderPrompt } from "./renderPrompt.js";
import type { DecisionBatch, DecisionQuestion } from "./types.js";

/** One question's prompt, rendered and tokenized, with the token boundaries it is evaluated at. */
export interface PreparedPrompt {
  question: DecisionQuestion;
  rendered: RenderedPrompt;
  tokens: Token[];
  /** The answer label of each option, in option order. */
  labels: string[];
  /** The token of each label, in option order. */
  labelTokens: Token[];
  /** Tokens of the preamble (identical in every prompt). */
  preambleBoundary: number;
  /** Tokens up to the end of the state (identical for every question on this state). */
  stateBoundary: number;
}

/** What {@link preparePrompts} needs of the loaded model. */
export interface PromptContext {
  vocabulary: PromptVocabulary;
  /** The verified label alphabet, in slot order, and the token of each label. */
  labels: readonly string[];
  labelTokens: readonly Token[];
  /** No prompt may reach this many tokens. */
  contextSize: number;
  /** Tokens of the preamble every prompt starts with (`renderPrompt("", "", [], []).preamble`). */
  preambleTokens: readonly Token[];
}

/**
 * Checks a batch, then renders and tokenizes each question's prompt (`direct-options-v1`, via
 * `renderPrompt`) and finds where its preamble and its state end in tokens. Pure: nothing is
 * evaluated.
 *
 * @throws InvalidDecisionError (or {@link InvalidBatchError} holding each of several) for every
 *   problem {@link checkDecisionBatch} finds, then {@link TokenBudgetError}s for prompts that
 *   would not fit the context.
 */
export function preparePrompts(batch: DecisionBatch, context: PromptContext): PreparedPrompt[] {
  const { vocabulary } = context;
  const tokenize = (text: string): Token[] => vocabulary.tokenize(text, true);
  const bare = renderPrompt(batch.state, "", [], []);
  const stateText = bare.statePrefix.slice(bare.preamble.length);
  throwAll(checkDecisionBatch(batch, stateText, vocabulary, context.labels.length));
  const stateTokens = tokenize(bare.statePrefix);
  const budgetProblems: InvalidDecisionError[] = [];
  const prompts = batch.questions.map((question, index) => {
    const count = question.options.length;
    const labels = context.labels.slice(0, count);
    const rendered = renderPrompt(batch.state, question.question, question.options, labels);
    const tokens = tokenize(rendered.text);
    if (tokens.length >= context.contextSize) {
      budgetProblems.push(
        new TokenBudgetError(["questions", index], tokens.length, context.contextSize - 1, "the prompt"),
      );
    }
    // The answer is read after the last token, so at least one token is always left to evaluate.
    const preambleBoundary = Math.min(commonPrefixLength(context.preambleTokens, tokens), tokens.length - 1);
    const stateBoundary = Math.max(
      preambleBoundary,
      Math.min(commonPrefixLength(stateTokens, tokens), tokens.length - 1),
    );
    return {
      question,
      rendered,
      tokens,
      labels,
      labelTokens: context.labelTokens.slice(0, count),
      preambleBoundary,
      stateBoundary,
    };
  });
  throwAll(budgetProblems);
  return prompts;
}

function throwAll(problems: readonly InvalidDecisionError[]): void {
  const [first] = problems;
  if (first === undefined) return;
  throw problems.length === 1 ? first : new InvalidBatchError(problems);
}
