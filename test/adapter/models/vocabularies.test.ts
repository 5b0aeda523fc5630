import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  buildSentencePieceVocab,
  loadQwen3Vocab,
  QWEN3_ENDOFTEXT_ID,
  QWEN3_IM_END_ID,
  QWEN3_PADDED_VOCAB_SIZE,
  TokenType,
} from "../../../adapter/models/index.js";

const SPACE = "\u2581";
const LETTERS = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));

describe("buildSentencePieceVocab", () => {
  it("starts with <unk>, <s>, </s> and the 256 byte tokens, as llama vocabularies do", () => {
    const vocab = buildSentencePieceVocab();

    assert.deepEqual(vocab.tokens.slice(0, 3), ["<unk>", "<s>", "</s>"]);
    assert.deepEqual(
      [...vocab.tokenTypes.slice(0, 3)],
      [TokenType.unknown, TokenType.control, TokenType.control],
    );
    assert.equal(vocab.tokens[3], "<0x00>");
    assert.equal(vocab.tokens[3 + 0x0a], "<0x0A>");
    assert.equal(vocab.tokens[258], "<0xFF>");
    assert.ok(vocab.tokenTypes.slice(3, 259).every((type) => type === TokenType.byte));
  });

  it("holds the ChatML markers as control tokens, eos being <|im_end|>", () => {
    const vocab = buildSentencePieceVocab();

    const start = vocab.tokens.indexOf("<|im_start|>");
    const end = vocab.tokens.indexOf("<|im_end|>");

    assert.equal(vocab.tokenTypes[start], TokenType.control);
    assert.equal(vocab.tokenTypes[end], TokenType.control);
    assert.equal(vocab.eosTokenId, end);
    assert.equal(vocab.addBosToken, false);
  });

  it("holds the letters A–Z with and without a leading ▁, and JSON punctuation pieces", () => {
    const tokens = new Set(buildSentencePieceVocab().tokens);

    for (const letter of LETTERS) {
      assert.ok(tokens.has(letter), letter);
      assert.ok(tokens.has(SPACE + letter), SPACE + letter);
    }
    for (const piece of [
      '{"',
      `":${SPACE}"`,
      `",${SPACE}"`,
      `${SPACE}evidence`,
      "criterion",
      `${SPACE}Choose`,
    ]) {
      assert.ok(tokens.has(piece), piece);
    }
  });

  it("has unique tokens, every prefix of each normal piece, and falling scores", () => {
    const vocab = buildSentencePieceVocab();
    const tokens = new Set(vocab.tokens);

    assert.equal(tokens.size, vocab.tokens.length);
    for (const [id, token] of vocab.tokens.entries()) {
      if (vocab.tokenTypes[id] !== TokenType.normal) continue;
      const characters = [...token];
      for (let end = 1; end < characters.length; end++) {
        assert.ok(tokens.has(characters.slice(0, end).join("")), `prefix of ${token}`);
      }
    }
    const scores = vocab.scores ?? new Float32Array();
    assert.equal(scores.length, vocab.tokens.length);
    const firstNormal = vocab.tokenTypes.indexOf(TokenType.normal);
    for (let id = firstNormal + 1; id < scores.length; id++)
      assert.ok((scores[id] ?? 0) < (scores[id - 1] ?? 0));
  });

  it("is the same on every call", () => {
    assert.deepEqual(buildSentencePieceVocab(), buildSentencePieceVocab());
  });
});

describe("loadQwen3Vocab", () => {
  it("holds Qwen3's tokens and merges, padded to 151,936 with unused tokens", async () => {
    const vocab = await loadQwen3Vocab();

    assert.equal(vocab.model, "gpt2");
    assert.equal(vocab.pre, "qwen2");
    assert.equal(vocab.tokens.length, QWEN3_PADDED_VOCAB_SIZE);
    assert.equal(vocab.tokenTypes.length, QWEN3_PADDED_VOCAB_SIZE);
    assert.equal(vocab.merges?.length, 151_387);
    assert.equal(vocab.merges?.[0], "Ġ Ġ");
    assert.equal(vocab.tokens[151_669], "[PAD151669]");
    assert.ok(vocab.tokenTypes.slice(151_669).every((type) => type === TokenType.unused));
    assert.ok(vocab.tokenTypes.slice(0, 151_643).every((type) => type === TokenType.normal));
  });

  it("marks the special added tokens as control and <think> as user-defined", async () => {
    const vocab = await loadQwen3Vocab();

    const typeOf = (text: string): number | undefined => vocab.tokenTypes[vocab.tokens.indexOf(text)];

    assert.equal(vocab.tokens[QWEN3_ENDOFTEXT_ID], "<|endoftext|>");
    assert.equal(vocab.tokens[151_644], "<|im_start|>");
    assert.equal(vocab.tokens[QWEN3_IM_END_ID], "<|im_end|>");
    assert.equal(typeOf("<|im_start|>"), TokenType.control);
    assert.equal(typeOf("<|im_end|>"), TokenType.control);
    assert.equal(typeOf("<|fim_prefix|>"), TokenType.control);
    assert.equal(typeOf("<think>"), TokenType.userDefined);
    assert.equal(typeOf("</think>"), TokenType.userDefined);
  });

  it("uses Qwen3's bos, eos and padding ids and adds no bos token", async () => {
    const vocab = await loadQwen3Vocab();

    assert.equal(vocab.eosTokenId, QWEN3_IM_END_ID);
    assert.equal(vocab.bosTokenId, QWEN3_ENDOFTEXT_ID);
    assert.equal(vocab.paddingTokenId, QWEN3_ENDOFTEXT_ID);
    assert.equal(vocab.addBosToken, false);
  });
});
