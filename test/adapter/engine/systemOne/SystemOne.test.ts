import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidDecisionError } from "../../../../adapter/engine/errors.js";
import {
  answerSystemOne,
  labelsOf,
  systemOneToBatch,
} from "../../../../adapter/engine/systemOne/SystemOne.js";
import type { SystemOneRequest } from "../../../../adapter/engine/systemOne/systemOneTypes.js";
import { jevBenchToSystemOne, loadJevBench } from "../../../../evaluation/jevbench/loadJevBench.js";
import { FakeEngine } from "../../../support/FakeEngine.js";

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
        assert.deepEqual(error.path, ["questions", "p", "criteria"]);
        return true;
      },
    );
  });
});

describe("answerSystemOne", () => {
  it("answers every question in request order, derived from one engine call", async () => {
    const engine = new FakeEngine();
    const response = await answerSystemOne(engine, request);
    assert.equal(engine.scored.length, 1, "one engine call for all questions");
    const { results, timing } = await engine.scoreBatch(systemOneToBatch(request));
    const [team, priority, outage] = results.map((result) => result.probabilities);
    assert.ok(team && priority && outage);
    assert.deepEqual(Object.keys(response.answers), ["team", "priority", "outage", "only"]);
    const answers = response.answers;
    const best = team.indexOf(Math.max(...team));
    assert.deepEqual(answers.team, {
      type: "choice",
      choice: ["infra", "billing"][best],
      confidence: team[best],
      probabilities: { infra: team[0], billing: team[1] },
      prompt_version: results[0]?.prompt_version,
      prompt_sha256: results[0]?.prompt_sha256,
    });
    assert.deepEqual(answers.priority, {
      type: "score",
      score: priority.reduce((sum, p, level) => sum + level * p, 0),
      confidence: Math.max(...priority),
      legend: ["low", "medium", "high"],
      probabilities: { "0": priority[0], "1": priority[1], "2": priority[2] },
      prompt_version: results[1]?.prompt_version,
      prompt_sha256: results[1]?.prompt_sha256,
    });
    assert.deepEqual(answers.outage, {
      type: "noul",
      noul: outage[0],
      prompt_version: results[2]?.prompt_version,
      prompt_sha256: results[2]?.prompt_sha256,
    });
    assert.deepEqual(answers.only, {
      type: "choice",
      choice: "default",
      confidence: 1,
      probabilities: { default: 1 },
    });
    assert.equal(response.usage.output_tokens, 0);
    // The shared state counts once: the first prompt whole, then each further question's own tokens.
    const [first, ...rest] = results;
    const expected = rest.reduce(
      (sum, r) => sum + r.input_tokens - timing.shared_prefix_tokens,
      first?.input_tokens ?? 0,
    );
    assert.equal(response.usage.input_tokens, expected);
  });

  it("reports the tokens the engine evaluated and reused, summed over the request's prompts", async () => {
    // A fake whose prompts after the first reuse the shared state, as the scorer's prefix reuse does.
    class PrefixReusingEngine extends FakeEngine {
      override async scoreBatch(...args: Parameters<FakeEngine["scoreBatch"]>) {
        const scored = await super.scoreBatch(...args);
        for (const [index, result] of scored.results.entries()) {
          result.cached_tokens = index === 0 ? 0 : scored.timing.shared_prefix_tokens;
          result.evaluated_tokens = result.input_tokens - result.cached_tokens;
        }
        return scored;
      }
    }
    const engine = new PrefixReusingEngine();

    const response = await answerSystemOne(engine, request);

    const { results, timing } = await engine.scoreBatch(systemOneToBatch(request));
    const evaluated = results.reduce((sum, result) => sum + result.evaluated_tokens, 0);
    assert.ok(timing.shared_prefix_tokens > 0, "the fake's prompts share a prefix");
    assert.equal(response.usage.evaluated_tokens, evaluated);
    assert.equal(response.usage.cached_tokens, 2 * timing.shared_prefix_tokens);
    // With the state evaluated once, what was evaluated is the request's distinct prompt text.
    assert.equal(response.usage.evaluated_tokens, response.usage.input_tokens);
  });

  it("reports no evaluated or cached tokens for a request answered without the model", async () => {
    const response = await answerSystemOne(new FakeEngine(), {
      state: "s",
      questions: { only: { type: "choice", instructions: "?", criteria: ["default"] } },
    });
    assert.deepEqual(response.usage, {
      input_tokens: 0,
      output_tokens: 0,
      evaluated_tokens: 0,
      cached_tokens: 0,
    });
  });

  it("breaks a tie between labels in favour of the one offered first", async () => {
    const engine = new FakeEngine();
    // Same description, same state and question: the fake gives both labels the same score.
    const response = await answerSystemOne(engine, {
      state: "s",
      questions: { q: { type: "choice", instructions: "?", criteria: { first: "x", second: "x" } } },
    });
    const answer = response.answers.q;
    assert.equal(answer?.type === "choice" ? answer.choice : undefined, "first");
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
