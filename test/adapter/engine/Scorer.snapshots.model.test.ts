import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import type { DecisionQuestion, DecisionResult } from "../../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";

const STATE = {
  ticket: "INC-4471",
  summary: "Checkout fails with a timeout for every customer in the EU region since 09:12 UTC.",
  customer_tier: "enterprise",
};

const questions: DecisionQuestion[] = [
  {
    id: "priority",
    question: "Which priority does this incident have?",
    options: [
      { id: "P1", description: "Critical: many customers cannot use a core function" },
      { id: "P2", description: "High: degraded, a workaround exists" },
      { id: "P3", description: "Low: cosmetic or single user" },
    ],
  },
  {
    id: "team",
    question: "Which team owns it?",
    options: [
      { id: "payments", description: "Payments platform" },
      { id: "edge", description: "Edge and networking" },
    ],
  },
  {
    id: "page",
    question: "Should the on-call engineer be paged?",
    options: [
      { id: "yes", description: "Yes" },
      { id: "no", description: "No" },
    ],
  },
];

function maxDifference(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((value, index) => Math.abs(value - (b[index] ?? Number.NaN))));
}

describe("Scorer on tiny-qwen35 (hybrid: Gated DeltaNet state cannot be truncated)", () => {
  let scorer: Scorer;
  before(async () => {
    scorer = await Scorer.load({
      modelPath: await ensureGeneratedModel("tiny-qwen35"),
      threads: 2,
      contextSize: 4096,
    });
  });
  after(async () => {
    await scorer.dispose();
  });

  it("is recognised as a model whose state must be snapshotted", () => {
    assert.equal(scorer.identity.architecture, "qwen35");
    assert.equal(scorer.identity.state_kind, "recurrent");
    assert.equal(scorer.needsSnapshots, true);
  });

  it("scores shared-state questions like each question alone (≤ 1e-4), restoring snapshots", async () => {
    const alone: DecisionResult[] = [];
    for (const question of questions) {
      await scorer.clearCache();
      alone.push(
        (await scorer.scoreBatch({ state: STATE, questions: [question] })).results[0] as DecisionResult,
      );
    }
    await scorer.clearCache();
    const shared = await scorer.scoreBatch({ state: STATE, questions });
    for (const [index, result] of shared.results.entries()) {
      const total = result.probabilities.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(total - 1) < 1e-9);
      assert.ok(maxDifference(result.probabilities, alone[index]?.probabilities ?? []) <= 1e-4, result.id);
    }
    assert.ok(scorer.cacheStats().snapshot_bytes > 0, "snapshots are held");
  });

  it("gives a cached state the same results as a cold one", async () => {
    await scorer.clearCache();
    const cold = (await scorer.scoreBatch({ state: STATE, questions: [questions[1] as DecisionQuestion] }))
      .results[0] as DecisionResult;
    // Another state in between, then the first state again: the snapshot at its end is reused.
    await scorer.scoreBatch({ state: "unrelated", questions: [questions[2] as DecisionQuestion] });
    await scorer.scoreBatch({ state: STATE, questions: [questions[0] as DecisionQuestion] });
    const hitsBefore = scorer.cacheStats().hits;
    const cached = (await scorer.scoreBatch({ state: STATE, questions: [questions[1] as DecisionQuestion] }))
      .results[0] as DecisionResult;
    assert.ok(maxDifference(cached.probabilities, cold.probabilities) <= 1e-4);
    assert.equal(scorer.cacheStats().hits, hitsBefore + 1);
    assert.ok(scorer.cacheStats().state_file_hits >= 1, "the state came back from its saved file");
    assert.ok(cached.cached_tokens >= cached.input_tokens - cached.evaluated_tokens);
  });
});

describe("Scorer on tiny-llama (SentencePiece vocabulary)", () => {
  it("derives its labels and scores a decision", async () => {
    await using scorer = await Scorer.load({
      modelPath: await ensureGeneratedModel("tiny-llama"),
      threads: 2,
    });
    assert.equal(scorer.identity.architecture, "llama");
    assert.ok(scorer.maxOptions >= 26);
    const { results } = await scorer.scoreBatch({
      state: "Reset my password please",
      questions: questions.slice(0, 2),
    });
    for (const [index, result] of results.entries()) {
      assert.deepEqual(
        result.option_ids,
        questions[index]?.options.map((option) => option.id),
      );
      assert.ok(Math.abs(result.probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    }
  });
});
