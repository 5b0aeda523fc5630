import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidDecisionError } from "../../../adapter/engine/errors.js";
import { answerSystemOne, labelsOf, systemOneToBatch } from "../../../adapter/engine/SystemOne.js";
import type { SystemOneRequest } from "../../../adapter/engine/systemOneTypes.js";
import { jevBenchToSystemOne, loadJevBench } from "../../../bench/loadJevBench.js";
import { FakeEngine } from "../../support/FakeEngine.js";

const request: SystemOneRequest = {
  state: "The server is down for all EU customers.",
  questions: {
    team: {
      type: "choice",
      instructions: "Which team?",
      criteria: { infra: "Infrastructure", billing: null },
    },
    priority: { type: "score", instructions: "How urgent?", criteria: ["low", "medium", "high"] },
    outage: { type: "noul", instructions: "Is this an outage?", criteria: { true: "an outage" } },
    only: { type: "choice", instructions: "Which queue?", criteria: ["default"] },
  },
};

describe("systemOneToBatch", () => {
  it("maps each question type to declared options in order", () => {
    const batch = systemOneToBatch(request);
    assert.equal(batch.state, request.state);
    assert.deepEqual(
      batch.questions.map((q) => [q.id, q.question, q.options.map((o) => `${o.id}=${o.description}`)]),
      [
        ["team", "Which team?", ["infra=Infrastructure", "billing=billing"]],
        ["priority", "How urgent?", ["0=low", "1=medium", "2=high"]],
        ["outage", "Is this an outage?", ["yes=an outage", "no=No"]],
      ],
    );
  });

  it("rejects a score with fewer than two levels, naming the field", () => {
    const bad: SystemOneRequest = {
      state: "s",
      questions: { p: { type: "score", instructions: "?", criteria: ["x"] } },
    };
    assert.throws(
      () => systemOneToBatch(bad),
      (error: unknown) => {
        assert.ok(error instanceof InvalidDecisionError);
        assert.equal(error.field, "questions.p.criteria");
        return true;
      },
    );
  });
});

describe("answerSystemOne", () => {
  it("answers every question in request order with distributions over exactly the offered labels", async () => {
    const engine = new FakeEngine();
    const response = await answerSystemOne(engine, request);
    assert.equal(engine.calls.length, 1, "one engine call for all questions");
    assert.deepEqual(Object.keys(response.answers), ["team", "priority", "outage", "only"]);
    const { team, priority, outage, only } = response.answers;
    assert.equal(team?.type, "choice");
    if (team?.type === "choice") {
      assert.equal(team.choice, "infra");
      assert.deepEqual(Object.keys(team.probabilities), ["infra", "billing"]);
      assert.ok(Math.abs(team.confidence - 2 / 3) < 1e-12);
    }
    assert.equal(priority?.type, "score");
    if (priority?.type === "score") {
      // Fake weights 3:2:1 → p = [1/2, 1/3, 1/6]; Σ i·p_i = 1/3 + 2/6.
      assert.ok(Math.abs(priority.score - 2 / 3) < 1e-12);
      assert.deepEqual(priority.legend, ["low", "medium", "high"]);
      assert.deepEqual(Object.keys(priority.probabilities), ["0", "1", "2"]);
    }
    assert.deepEqual(outage, { type: "noul", noul: 2 / 3 });
    assert.deepEqual(only, {
      type: "choice",
      choice: "default",
      confidence: 1,
      probabilities: { default: 1 },
    });
    assert.equal(response.usage.output_tokens, 0);
    assert.equal(response.usage.input_tokens, 100 + 40 + 40);
  });
});

describe("JevBench mapping", () => {
  it("maps all 231 public cases to one System One question over exactly their labels", async () => {
    const cases = await loadJevBench();
    assert.equal(cases.length, 231);
    for (const testCase of cases) {
      const mapped = jevBenchToSystemOne(testCase);
      const question = mapped.questions.q;
      assert.ok(question, testCase.id);
      assert.deepEqual(new Set(labelsOf(question)), new Set(testCase.labels), testCase.id);
      if (question.type === "choice") assert.deepEqual(labelsOf(question), testCase.labels, testCase.id);
      assert.ok(testCase.labels.includes(String(testCase.expected)), testCase.id);
    }
  });
});
