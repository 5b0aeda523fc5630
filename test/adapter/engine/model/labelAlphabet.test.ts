import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ModelLoadError } from "../../../../adapter/engine/errors.js";
import { candidateLabels, deriveLabelAlphabet } from "../../../../adapter/engine/model/labelAlphabet.js";

/** A toy tokenizer: every known piece is one token, greedy longest match, else one token per char. */
function toyVocabulary(pieces: string[]) {
  const ids = new Map<string, number>();
  const texts: string[] = [];
  for (const piece of pieces) {
    ids.set(piece, texts.length);
    texts.push(piece);
  }
  const tokenize = (text: string): number[] => {
    const out: number[] = [];
    let at = 0;
    while (at < text.length) {
      let length = Math.min(4, text.length - at);
      while (length > 1 && !ids.has(text.slice(at, at + length))) length -= 1;
      const piece = text.slice(at, at + length);
      if (!ids.has(piece)) {
        ids.set(piece, texts.length);
        texts.push(piece);
      }
      out.push(ids.get(piece) ?? -1);
      at += length;
    }
    return out;
  };
  return { tokenize, detokenize: (token: number) => texts[token] ?? "" };
}

describe("deriveLabelAlphabet", () => {
  it("lists A..Z first, then AA..ZZ", () => {
    const labels = candidateLabels();
    assert.equal(labels.length, 26 + 26 * 26);
    assert.deepEqual(labels.slice(0, 3), ["A", "B", "C"]);
    assert.deepEqual(labels.slice(26, 29), ["AA", "AB", "AC"]);
    assert.equal(labels.at(-1), "ZZ");
  });

  it("keeps only labels that are exactly one new token after the context", () => {
    const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
    const { tokenize, detokenize } = toyVocabulary(["\n\n", ...letters, "AB", "QX"]);
    const alphabet = deriveLabelAlphabet(tokenize, detokenize, "x\n\n");
    assert.deepEqual(alphabet.labels, [...letters, "AB", "QX"]);
    assert.equal(new Set(alphabet.tokens).size, alphabet.tokens.length);
  });

  it("drops a label that merges with the text before it", () => {
    const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
    // ":AB" is one piece, so "AB" after ":" merges with the colon and cannot be a slot.
    const { tokenize, detokenize } = toyVocabulary([":", ...letters, "AB", ":AB", "CD"]);
    const alphabet = deriveLabelAlphabet(tokenize, detokenize, "answer:");
    assert.ok(!alphabet.labels.includes("AB"));
    assert.ok(alphabet.labels.includes("CD"));
  });

  it("refuses a vocabulary in which a single letter is not one token", () => {
    const { tokenize, detokenize } = toyVocabulary(["\n", "A", "B"]);
    const broken = (text: string) =>
      text.endsWith("C") ? [...tokenize(text.slice(0, -1)), 900, 901] : tokenize(text);
    assert.throws(() => deriveLabelAlphabet(broken, detokenize, "\n"), ModelLoadError);
  });
});
