import { ModelLoadError } from "../errors.js";

/** The answer labels a model can be offered, each read from exactly one vocabulary token. */
export interface LabelAlphabet {
  /** Labels in slot order: A..Z first, then further two-letter labels the vocabulary keeps whole. */
  labels: string[];
  /** The token of each label, in the same order; all distinct. */
  tokens: number[];
}

const SINGLE_LETTERS = Array.from({ length: 26 }, (_, index) => String.fromCharCode(65 + index));

/** Candidate labels in the order slots are assigned: A..Z, then AA, AB, …, ZZ. */
export function candidateLabels(): string[] {
  const pairs = SINGLE_LETTERS.flatMap((first) => SINGLE_LETTERS.map((second) => first + second));
  return [...SINGLE_LETTERS, ...pairs];
}

/**
 * Derives and verifies the label alphabet of a vocabulary: a label is kept when the answer position
 * followed by the label tokenizes as the answer position's own tokens plus exactly one new token
 * (so the label neither splits nor merges with the text before it), that token detokenizes to the
 * label, and no earlier label has the same token.
 *
 * @param tokenize tokenizes text as the engine does (special tokens parsed).
 * @param detokenize turns one token back into text.
 * @param answerContext the text that precedes the answer (the end of a rendered prompt).
 * @throws ModelLoadError when any of A..Z fails: such a model cannot answer `direct-options-v1`.
 */
export function deriveLabelAlphabet(
  tokenize: (text: string) => number[],
  detokenize: (token: number) => string,
  answerContext: string,
): LabelAlphabet {
  const base = tokenize(answerContext);
  const labels: string[] = [];
  const tokens: number[] = [];
  const seen = new Set<number>();
  for (const label of candidateLabels()) {
    const token = singleNewToken(base, tokenize(answerContext + label));
    const usable = token !== undefined && !seen.has(token) && detokenize(token) === label;
    if (!usable) {
      if (label.length === 1) {
        throw new ModelLoadError(
          `the vocabulary does not encode the answer label "${label}" as one token after the answer position`,
        );
      }
      continue;
    }
    seen.add(token);
    labels.push(label);
    tokens.push(token);
  }
  return { labels, tokens };
}

function singleNewToken(base: number[], extended: number[]): number | undefined {
  if (extended.length !== base.length + 1) return undefined;
  for (let index = 0; index < base.length; index += 1) {
    if (extended[index] !== base[index]) return undefined;
  }
  return extended[base.length];
}
