/**
 * The control-text check of prompt preparation: a vocabulary that lists its tokens is screened by
 * its control texts, so a state free of them is not tokenized again only to look for them (a
 * 120 KB state was tokenized four times per prompt, two of them for this check), and text that
 * holds one is still named by the tokenizer itself.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Token } from "node-llama-cpp";
import { ReservedTokenError } from "../../../../adapter/engine/errors.js";
import { findReservedToken } from "../../../../adapter/engine/prompt/findReservedToken.js";
import {
  type PromptContext,
  preambleTokensOf,
  preparePrompts,
} from "../../../../adapter/engine/prompt/preparePrompts.js";
import { reservedTextScreenOf } from "../../../../adapter/engine/prompt/reservedTextScreen.js";
import { STUB_LABEL_TOKENS, STUB_LABELS, StubVocabulary } from "../../../support/StubVocabulary.js";

/** The stub, listing its tokens as a loaded model does: its three control tokens and the ASCII letters. */
class ListedStubVocabulary extends StubVocabulary {
  readonly texts: string[] = [];

  override tokenize(text: string, specialTokens: boolean): Token[] {
    this.texts.push(text);
    return super.tokenize(text, specialTokens);
  }

  *iterateAllTokens(): Generator<Token> {
    for (let code = 32; code < 127; code += 1) yield code as Token;
    for (let special = 100_000; special < 100_003; special += 1) yield special as Token;
  }

  getTokenAttributes(token: Token): { control: boolean; unknown: boolean } {
    return { control: token >= 100_000, unknown: false };
  }
}

/** A listing stub whose control token reads back as nothing: it cannot be screened. */
class UnreadableControlVocabulary extends ListedStubVocabulary {
  override detokenize(tokens: readonly Token[], specialTokens: boolean): string {
    return tokens[0] === 100_001 ? "" : super.detokenize(tokens, specialTokens);
  }
}

function contextOf(vocabulary: StubVocabulary): PromptContext {
  return {
    vocabulary,
    labels: STUB_LABELS,
    labelTokens: STUB_LABEL_TOKENS,
    contextSize: 1_000_000,
    preambleTokens: preambleTokensOf(vocabulary),
  };
}

const STATE = "The customer writes again about the invoice, the refund and the account. ".repeat(200);
const question = {
  id: "route",
  question: "Which team?",
  options: [
    { id: "billing", description: "Billing" },
    { id: "tech", description: "Technical support" },
  ],
};

describe("findReservedToken", () => {
  it("tokenizes a state free of control text only for its prompt, not again to look for control text", () => {
    const vocabulary = new ListedStubVocabulary();
    const context = contextOf(vocabulary);
    reservedTextScreenOf(vocabulary);
    vocabulary.texts.length = 0;

    preparePrompts({ state: STATE, questions: [question] }, context);

    // The prompt and its shared prefix each hold the state once; nothing else should.
    assert.equal(vocabulary.texts.filter((text) => text.includes(STATE)).length, 2);
  });

  it("still names a control token in the state, a question or an option of a screened vocabulary", () => {
    const vocabulary = new ListedStubVocabulary();
    const context = contextOf(vocabulary);

    assert.throws(
      () => preparePrompts({ state: `${STATE}<|im_end|>`, questions: [question] }, context),
      (error) => error instanceof ReservedTokenError && error.token === "<|im_end|>",
    );
    assert.equal(findReservedToken(vocabulary, "Which <|im_start|>team?"), "<|im_start|>");
    assert.equal(findReservedToken(vocabulary, "a < b | c > d <|x|>"), undefined);
  });

  it("lists a vocabulary's control texts, and screens none that does not list its tokens or whose control text does not read back", () => {
    assert.deepEqual(reservedTextScreenOf(new ListedStubVocabulary())?.texts, [
      "<|im_start|>",
      "<|im_end|>",
      "<|endoftext|>",
    ]);
    assert.equal(reservedTextScreenOf(new StubVocabulary()), undefined);
    const unreadable = new UnreadableControlVocabulary();
    assert.equal(reservedTextScreenOf(unreadable), undefined);
    unreadable.texts.length = 0;

    assert.equal(findReservedToken(unreadable, STATE), undefined);

    assert.equal(unreadable.texts.length, 2, "checked by tokenizing, both ways");
  });
});
