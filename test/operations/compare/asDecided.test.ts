import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { asDecided } from "../../../operations/compare/index.js";

describe("asDecided", () => {
  it("takes a reviewed outcome back to what the pipeline decided, the person's answers as labels", () => {
    const reviewed = {
      policy: "p",
      id: "1",
      policy_status: "p#reviewed",
      status: "reviewed",
      answers: {
        queue: {
          answer: "billing",
          probability: 0.4,
          distribution: { billing: 0.4, technical: 0.45, triage: 0.15 },
          threshold: 0.55,
          source: "human",
          model_answer: "technical",
        },
        priority: {
          answer: "P3",
          probability: 0.9,
          distribution: { P3: 0.9 },
          threshold: 0.5,
          source: "model",
        },
      },
      review: {
        at: "2026-12-01T01:00:00.000Z",
        previous_status: "fallback",
        previous_updated_at: "2026-12-01T00:00:00.000Z",
        answers: { queue: "billing" },
        previous_answers: { queue: { answer: "triage", source: "fallback" } },
      },
      rules_fired: [],
      source: { kind: "sqs" },
      created_at: "2026-12-01T00:00:00.000Z",
      updated_at: "2026-12-01T01:00:00.000Z",
    } as StoredOutcome;

    const { decision, labels } = asDecided(reviewed);

    assert.equal(decision.status, "fallback");
    assert.equal(decision.answers?.queue?.answer, "triage");
    assert.equal(decision.answers?.queue?.source, "fallback");
    assert.equal(decision.answers?.queue?.model_answer, "technical", "the model's own answer is kept");
    assert.equal(decision.answers?.queue?.probability, 0.15);
    assert.deepEqual(decision.answers?.priority, reviewed.answers?.priority);
    assert.deepEqual(labels, { queue: "billing" });
  });
});
