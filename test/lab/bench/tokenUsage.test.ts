import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addAnswerUsage, noTokenUsage } from "../../../lab/bench/backlog/tokenUsage.js";

describe("addAnswerUsage", () => {
  it("adds each answer's input, evaluated and cached tokens, and skips bodies without a usage", () => {
    // prepare
    const total = noTokenUsage();

    // act
    addAnswerUsage(
      total,
      JSON.stringify({ usage: { input_tokens: 10, evaluated_tokens: 7, cached_tokens: 3 } }),
    );
    addAnswerUsage(total, JSON.stringify({ usage: { input_tokens: 5 } }));
    addAnswerUsage(total, JSON.stringify({ error: "the server is at capacity", retryable: true }));
    addAnswerUsage(total, "not json");

    // assert
    assert.deepEqual(total, { answers: 2, input: 15, evaluated: 7, cached: 3 });
  });
});
