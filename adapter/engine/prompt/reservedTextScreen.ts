import type { Token } from "node-llama-cpp";
import type { PromptVocabulary } from "./PromptVocabulary.js";

/**
 * What a vocabulary offers that lists its tokens and their kinds (a loaded `LlamaModel` does; a
 * stub tokenizer in tests may not).
 */
export interface ListedVocabulary {
  /** Every token id of the vocabulary. */
  iterateAllTokens(): Iterable<Token>;
  /** The token's kind: control (`<|im_start|>`), unknown, or neither. */
  getTokenAttributes(token: Token): { readonly control: boolean; readonly unknown: boolean };
}

/**
 * The texts of a vocabulary's control and unknown tokens: the only tokens that tokenizing with
 * special-token parsing may read where tokenizing without it would not (llama.cpp's
 * `tokenizer_st_partition` skips exactly these when special tokens are not parsed; user-defined
 * tokens are split out either way). So text that contains none of these texts tokenizes the same
 * both ways, and holds no control token: it needs no tokenizing to be cleared.
 */
export interface ReservedTextScreen {
  /** The control and unknown tokens' texts, as the tokenizer matches them. */
  readonly texts: readonly string[];
  /** Whether `text` contains one of {@link texts} (then only tokenizing it can tell what it holds). */
  mayHoldReservedToken(text: string): boolean;
}

const screens = new WeakMap<object, ReservedTextScreen | null>();

/**
 * The vocabulary's {@link ReservedTextScreen}, built on first use and kept per vocabulary
 * (listing 152k tokens takes ~150 ms on a 2-core machine; a prompt worker builds it at start), or
 * `undefined` when the vocabulary cannot be screened — it does not list its tokens, or a control
 * text does not read back as its own token alone (an empty text, two tokens with one text): then
 * every text is checked by tokenizing it, as without a screen.
 */
export function reservedTextScreenOf(vocabulary: PromptVocabulary): ReservedTextScreen | undefined {
  const known = screens.get(vocabulary);
  if (known !== undefined) return known ?? undefined;
  const screen = buildScreen(vocabulary);
  screens.set(vocabulary, screen ?? null);
  return screen;
}

function buildScreen(vocabulary: PromptVocabulary): ReservedTextScreen | undefined {
  const listed = vocabulary as PromptVocabulary & Partial<ListedVocabulary>;
  if (typeof listed.iterateAllTokens !== "function" || typeof listed.getTokenAttributes !== "function") {
    return undefined;
  }
  const texts: string[] = [];
  for (const token of listed.iterateAllTokens()) {
    const attributes = listed.getTokenAttributes(token);
    if (!attributes.control && !attributes.unknown) continue;
    const text = vocabulary.detokenize([token], true);
    const read = text === "" ? [] : vocabulary.tokenize(text, true);
    // The screen holds only if each text is what the tokenizer matches for its token.
    if (read.length !== 1 || read[0] !== token) return undefined;
    texts.push(text);
  }
  return {
    texts,
    mayHoldReservedToken: (text) => texts.some((reserved) => text.includes(reserved)),
  };
}
