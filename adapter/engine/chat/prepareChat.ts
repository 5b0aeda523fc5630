import type { Token } from "node-llama-cpp";
import {
  InvalidBatchError,
  type InvalidDecisionError,
  ReservedTokenError,
  TokenBudgetError,
} from "../errors.js";
import { findReservedToken } from "../prompt/findReservedToken.js";
import type { PromptVocabulary } from "../prompt/PromptVocabulary.js";
import { ASSISTANT_OPENING } from "../prompt/renderPrompt.js";
import type { ChatCompletionRequest } from "../types.js";

/** A chat request rendered and tokenized, ready for generation. */
export interface PreparedChat {
  tokens: Token[];
  /** Most tokens to generate: the request's `maxTokens` (default 16) within what the context leaves. */
  maxTokens: number;
  /** Sampling temperature; 0 is greedy. */
  temperature: number;
}

/**
 * Renders a chat request with ChatML, thinking disabled (as the standard path's template does),
 * and tokenizes it. Pure: nothing is evaluated.
 *
 * @throws ReservedTokenError naming `["messages", i, "content"]` for control text in a message
 *   (all of them at once in an {@link InvalidBatchError}).
 * @throws TokenBudgetError naming `["messages"]` when the prompt does not fit the context.
 */
export function prepareChat(
  request: ChatCompletionRequest,
  vocabulary: PromptVocabulary,
  contextSize: number,
): PreparedChat {
  const problems: InvalidDecisionError[] = [];
  for (const [index, message] of request.messages.entries()) {
    const token = findReservedToken(vocabulary, message.content);
    if (token !== undefined) problems.push(new ReservedTokenError(["messages", index, "content"], token));
  }
  const [first] = problems;
  if (first !== undefined) throw problems.length === 1 ? first : new InvalidBatchError(problems);
  const tokens = vocabulary.tokenize(renderChat(request), true);
  if (tokens.length >= contextSize) {
    throw new TokenBudgetError(["messages"], tokens.length, contextSize - 1, "the chat prompt");
  }
  return {
    tokens,
    maxTokens: Math.min(request.maxTokens ?? 16, contextSize - tokens.length),
    temperature: request.temperature ?? 0,
  };
}

/** ChatML rendering of a chat request, thinking disabled. */
export function renderChat(request: ChatCompletionRequest): string {
  const turns = request.messages.map(
    (message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`,
  );
  return `${turns.join("")}${ASSISTANT_OPENING}`;
}
