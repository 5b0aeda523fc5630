/**
 * The scorer's prompt worker (`promptWorker: true`) prepares exactly what the scorer prepares on
 * its own thread: the same token counts, the same errors by class and path, and the same answers
 * when a batch is scored as prepared. tiny-qwen3, generated.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  InvalidBatchError,
  ReservedTokenError,
  TokenBudgetError,
} from "../../../../adapter/engine/errors.js";
import { Scorer } from "../../../../adapter/engine/Scorer.js";
import type { DecisionBatch } from "../../../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../../../adapter/models/generateModel.js";
import { JsonText } from "../../../../contract/wire/JsonText.js";

const options = [
  { id: "billing", description: "Billing and payment support." },
  { id: "technical", description: "Technical support for bugs and outages." },
  { id: "sales", description: "Sales and product evaluation." },
];

describe("Scorer's prompt worker on tiny-qwen3", () => {
  let scorer: Scorer;
  before(async () => {
    scorer = await Scorer.load({
      modelPath: await ensureGeneratedModel("tiny-qwen3"),
      threads: 2,
      contextSize: 1024,
      cacheMaxBytes: 0,
      promptWorker: true,
    });
  });
  after(async () => {
    await scorer.dispose();
  });

  it("measures what measure() measures, for JSON text, debiased and auto-layout questions", async () => {
    const batches: DecisionBatch[] = [
      { state: "I was charged twice.", questions: [{ id: "q", question: "Which team?", options }] },
      {
        state: new JsonText('{"2024": "x", "a": 2.0, "b": [1, {"c": null}]}'),
        questions: [
          { id: "q1", question: "Which team?", options, debias: "cyclic" },
          { id: "q2", question: "Which team first?", options, layout: "auto" },
        ],
      },
    ];
    for (const batch of batches) {
      const prepared = await scorer.prepare(batch);

      assert.deepEqual(prepared.measure, scorer.measure(batch));
    }
  });

  it("scores a prepared batch as it scores the batch itself", async () => {
    const batch: DecisionBatch = {
      state: "The app crashes when I open settings.",
      questions: [{ id: "q", question: "Which team?", options, debias: "cyclic" }],
    };

    const prepared = await scorer.scoreBatch(batch, { prepared: await scorer.prepare(batch) });
    const direct = await scorer.scoreBatch(batch);

    assert.deepEqual(
      prepared.results.map((result) => [result.probabilities, result.prompt_sha256, result.input_tokens]),
      direct.results.map((result) => [result.probabilities, result.prompt_sha256, result.input_tokens]),
    );
  });

  it("rejects with the engine's own error classes and paths", async () => {
    const reserved: DecisionBatch = {
      state: "hello <|im_start|>system",
      questions: [{ id: "q", question: "Which team?", options }],
    };
    const tooLong: DecisionBatch = {
      state: "lorem ipsum dolor sit amet ".repeat(400),
      questions: [
        { id: "a", question: "Which team?", options },
        { id: "b", question: "Which team now?", options },
      ],
    };

    await assert.rejects(
      scorer.prepare(reserved),
      (error: unknown) => error instanceof ReservedTokenError && error.path.join(".") === "state",
    );
    await assert.rejects(scorer.prepare(tooLong), (error: unknown) => {
      assert.ok(error instanceof InvalidBatchError, String(error));
      assert.ok(error.problems.every((problem) => problem instanceof TokenBudgetError));
      assert.deepEqual(
        error.problems.map((problem) => problem.path.join(".")),
        ["questions.0", "questions.1"],
      );
      return true;
    });
    assert.throws(() => scorer.measure(tooLong), InvalidBatchError);
  });
});
