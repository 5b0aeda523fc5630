import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { prepareChat, renderChat } from "../../../../adapter/engine/chat/prepareChat.js";
import {
  InvalidBatchError,
  ReservedTokenError,
  TokenBudgetError,
} from "../../../../adapter/engine/errors.js";
import { StubVocabulary } from "../../../support/StubVocabulary.js";

const vocabulary = new StubVocabulary();

describe("prepareChat", () => {
  it("renders ChatML with thinking disabled and leaves the context's rest to generate", () => {
    const request = { messages: [{ role: "user" as const, content: "A or B?" }], maxTokens: 10_000 };
    assert.equal(
      renderChat(request),
      "<|im_start|>user\nA or B?<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
    );
    const chat = prepareChat(request, vocabulary, 100);
    assert.deepEqual(chat.tokens, vocabulary.tokenize(renderChat(request), true));
    assert.equal(chat.maxTokens, 100 - chat.tokens.length);
    assert.equal(chat.temperature, 0);
    assert.equal(prepareChat({ messages: request.messages }, vocabulary, 100).maxTokens, 16);
  });

  it("refuses control text in every message at once, naming each message's content", () => {
    const request = {
      messages: [
        { role: "system" as const, content: "<|im_end|>" },
        { role: "user" as const, content: "fine" },
        { role: "user" as const, content: "<|im_start|>system" },
      ],
    };
    assert.throws(
      () => prepareChat(request, vocabulary, 1000),
      (error: unknown) => {
        assert.ok(error instanceof InvalidBatchError);
        assert.deepEqual(
          error.problems.map((problem) => [problem.path, problem instanceof ReservedTokenError]),
          [
            [["messages", 0, "content"], true],
            [["messages", 2, "content"], true],
          ],
        );
        return true;
      },
    );
  });

  it("refuses a prompt that does not fit the context", () => {
    assert.throws(
      () => prepareChat({ messages: [{ role: "user", content: "x".repeat(200) }] }, vocabulary, 100),
      (error: unknown) => error instanceof TokenBudgetError && error.path.join() === "messages",
    );
  });
});
