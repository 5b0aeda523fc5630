import type { PromptVocabulary } from "./PromptVocabulary.js";
import { reservedTextScreenOf } from "./reservedTextScreen.js";

/**
 * The control text hidden in caller-supplied `text`, asking the vocabulary itself: text that
 * tokenizes differently with special-token parsing than without holds a control token (it could
 * forge prompt structure, e.g. `<|im_end|>`).
 *
 * Text that contains none of the vocabulary's control texts ({@link reservedTextScreenOf}) holds
 * none and is not tokenized: tokenizing a 120 KB state twice cost more than preparing its prompt.
 *
 * @returns the control token's text (or `(special token)` when it cannot be named); undefined when
 *   the text holds none.
 */
export function findReservedToken(vocabulary: PromptVocabulary, text: string): string | undefined {
  const screen = reservedTextScreenOf(vocabulary);
  if (screen !== undefined && !screen.mayHoldReservedToken(text)) return undefined;
  const withSpecial = vocabulary.tokenize(text, true);
  const plain = vocabulary.tokenize(text, false);
  if (withSpecial.length === plain.length && withSpecial.every((token, index) => token === plain[index]))
    return undefined;
  const special = withSpecial.find((token) => vocabulary.isSpecialToken(token));
  return special === undefined ? "(special token)" : vocabulary.detokenize([special], true);
}
