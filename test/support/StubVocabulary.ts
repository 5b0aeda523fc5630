/**
 * A vocabulary stand-in for the engine's pure units (prompt and chat preparation): one token per
 * UTF-16 code unit, and the ChatML control texts as special tokens (ids from 100000) when special
 * tokens are parsed — as a real vocabulary reads them.
 */
import type { Token } from "node-llama-cpp";
import type { PromptVocabulary } from "../../adapter/engine/prompt/PromptVocabulary.js";

const SPECIALS = ["<|im_start|>", "<|im_end|>", "<|endoftext|>"] as const;
const FIRST_SPECIAL = 100_000;

/** The stub: see the file comment. `tokenized` counts the calls, for tests that care. */
export class StubVocabulary implements PromptVocabulary {
  tokenized = 0;

  tokenize(text: string, specialTokens: boolean): Token[] {
    this.tokenized += 1;
    const tokens: number[] = [];
    let index = 0;
    while (index < text.length) {
      const special = specialTokens ? SPECIALS.findIndex((marker) => text.startsWith(marker, index)) : -1;
      if (special >= 0) {
        tokens.push(FIRST_SPECIAL + special);
        index += SPECIALS[special]?.length ?? 1;
      } else {
        tokens.push(text.charCodeAt(index));
        index += 1;
      }
    }
    return tokens as Token[];
  }

  isSpecialToken(token: Token): boolean {
    return token >= FIRST_SPECIAL;
  }

  detokenize(tokens: readonly Token[], specialTokens: boolean): string {
    return tokens
      .map((token) =>
        token >= FIRST_SPECIAL
          ? specialTokens
            ? (SPECIALS[token - FIRST_SPECIAL] ?? "")
            : ""
          : String.fromCharCode(token),
      )
      .join("");
  }
}

/** The labels A..Z and their stub tokens (their character codes). */
export const STUB_LABELS = Array.from({ length: 26 }, (_, index) => String.fromCharCode(65 + index));
export const STUB_LABEL_TOKENS = STUB_LABELS.map((label) => label.charCodeAt(0)) as Token[];
