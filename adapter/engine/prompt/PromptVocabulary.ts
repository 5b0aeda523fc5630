import type { Token } from "node-llama-cpp";

/**
 * What prompt preparation needs of a model's vocabulary; a loaded `LlamaModel` is one, and a
 * stub tokenizer in tests is another.
 */
export interface PromptVocabulary {
  /** Tokens of `text`; with `specialTokens`, control text such as `<|im_start|>` becomes its token. */
  tokenize(text: string, specialTokens: boolean): Token[];
  /** Whether a token is a special (control) token. */
  isSpecialToken(token: Token): boolean;
  /** Text of tokens; with `specialTokens`, control tokens are written as their text. */
  detokenize(tokens: readonly Token[], specialTokens: boolean): string;
}
