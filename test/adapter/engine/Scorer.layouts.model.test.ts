/**
 * The engine's cache-friendly prompt parts on a real attention model (tiny-qwen3, real Qwen3
 * vocabulary): the closing prefix kept with a cached state, the question-first layout and its
 * cached question prefix, `auto`, cyclic option-order debiasing, and parallel sequences. Cached and
 * reused answers are asserted bitwise equal to cold ones.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { getLlama, type Llama, type LlamaModel, type Token } from "node-llama-cpp";
import { CLOSING_PREFIX, renderPrompt } from "../../../adapter/engine/prompt/renderPrompt.js";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import { commonPrefixLength } from "../../../adapter/engine/sequence/commonPrefixLength.js";
import { answerSystemOne } from "../../../adapter/engine/systemOne/SystemOne.js";
import type {
  BatchResult,
  DecisionBatch,
  DecisionOption,
  DecisionQuestion,
  DecisionResult,
  PromptLayout,
} from "../../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";

const STATE = "Customer says: I was charged twice for my subscription this month and the app keeps crashing.";
const OTHER_STATE = "The dashboard shows a 500 error since this morning; nobody in the team can log in.";

const route: DecisionQuestion = {
  id: "route",
  question: "Which team should handle this ticket?",
  options: [
    { id: "billing", description: "Billing and payments" },
    { id: "technical", description: "Technical support" },
    { id: "sales", description: "Sales" },
  ],
};
const urgency: DecisionQuestion = {
  id: "urgency",
  question: "How urgent is it?",
  options: [
    { id: "low", description: "Can wait a week" },
    { id: "normal", description: "Within two days" },
    { id: "high", description: "Today" },
    { id: "critical", description: "Right now" },
  ],
};
/** A routing question with 20 queues: long options, the case question-first is for. */
const queues: DecisionQuestion = {
  id: "queue",
  question: "Which support queue should this ticket go to?",
  options: Array.from({ length: 20 }, (_, index) => ({
    id: `q${index}`,
    description: `Queue ${index}: tickets about product area ${index}, its billing, accounts and outages`,
  })),
};

function first(results: { results: DecisionResult[] }): DecisionResult {
  const [result] = results.results;
  assert.ok(result);
  return result;
}

function probabilityOf(result: DecisionResult, id: string): number {
  const index = result.option_ids.indexOf(id);
  assert.ok(index >= 0, `no option ${id}`);
  return result.probabilities[index] as number;
}

describe("Scorer prompt layouts and debiasing on tiny-qwen3", () => {
  let llama: Llama;
  let model: LlamaModel;
  let scorer: Scorer;
  const tokenize = (text: string): Token[] => model.tokenize(text, true);
  const promptTokens = (state: string, question: DecisionQuestion, layout?: PromptLayout): Token[] => {
    const labels = scorer.labels.slice(0, question.options.length);
    return tokenize(renderPrompt(state, question.question, question.options, labels, layout).text);
  };
  /** Scores one batch from a cold state. */
  const cold = async (batch: DecisionBatch): Promise<DecisionResult[]> => {
    await scorer.clearCache();
    return (await scorer.scoreBatch(batch)).results;
  };

  before(async () => {
    const modelPath = await ensureGeneratedModel("tiny-qwen3");
    llama = await getLlama({ gpu: false, build: "never", maxThreads: 2, logLevel: "error" as never });
    model = await llama.loadModel({ modelPath });
    scorer = await Scorer.load({ modelPath, llama, model, threads: 2, contextSize: 4096 });
  });
  after(async () => {
    await scorer.dispose();
    await model.dispose();
    await llama.dispose();
  });

  describe("the closing prefix of direct-options-v1", () => {
    it("stays cached with the state: a new question evaluates fewer tokens, with a cold run's results", async () => {
      const [alone] = await cold({ state: STATE, questions: [urgency] });
      await scorer.clearCache();
      await scorer.scoreBatch({ state: STATE, questions: [route] });
      const cached = first(await scorer.scoreBatch({ state: STATE, questions: [urgency] }));
      assert.deepEqual(cached.probabilities, alone?.probabilities);
      assert.deepEqual(cached.option_logits, alone?.option_logits);

      const tokens = promptTokens(STATE, urgency);
      const preamble = `${renderPrompt(STATE, "", [], []).preamble}{"evidence": `;
      const stateEnd = commonPrefixLength(tokenize(preamble + JSON.stringify(STATE)), tokens);
      const closingEnd = commonPrefixLength(
        tokenize(preamble + JSON.stringify(STATE) + CLOSING_PREFIX),
        tokens,
      );
      assert.equal(cached.input_tokens, tokens.length);
      assert.equal(cached.cached_tokens, closingEnd, "reused through the closing prefix");
      assert.equal(cached.evaluated_tokens, tokens.length - closingEnd);
      assert.ok(
        cached.evaluated_tokens <= tokens.length - stateEnd - 3,
        `evaluated ${cached.evaluated_tokens} tokens; rewinding to the end of the state would evaluate ${tokens.length - stateEnd}`,
      );
    });
  });

  describe("question-first-v1", () => {
    it("names its layout and hashes its own prompt", async () => {
      const [result] = await cold({ state: STATE, questions: [{ ...route, layout: "question-first-v1" }] });
      assert.ok(result);
      assert.equal(result.prompt_version, "question-first-v1");
      const labels = scorer.labels.slice(0, 3);
      const text = renderPrompt(STATE, route.question, route.options, labels, "question-first-v1").text;
      assert.equal(result.prompt_sha256, createHash("sha256").update(text, "utf8").digest("hex"));
      assert.deepEqual(result.option_ids, ["billing", "technical", "sales"]);
      assert.ok(Math.abs(result.probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    });

    it("reuses the question prefix for the next item: only the state and the closing are evaluated, with a cold run's results", async () => {
      const question = { ...queues, layout: "question-first-v1" as const };
      const [alone] = await cold({ state: OTHER_STATE, questions: [question] });
      await scorer.clearCache();
      const firstItem = first(await scorer.scoreBatch({ state: STATE, questions: [question] }));
      const secondItem = first(await scorer.scoreBatch({ state: OTHER_STATE, questions: [question] }));
      assert.deepEqual(secondItem.probabilities, alone?.probabilities);
      const tokens = promptTokens(OTHER_STATE, queues, "question-first-v1");
      const labels = scorer.labels.slice(0, queues.options.length);
      const prefix = renderPrompt(OTHER_STATE, queues.question, queues.options, labels, "question-first-v1");
      const prefixEnd = commonPrefixLength(tokenize(prefix.sharedPrefix), tokens);
      assert.equal(secondItem.cached_tokens, prefixEnd);
      assert.equal(secondItem.evaluated_tokens, tokens.length - prefixEnd);
      const stateTokens = tokenize(JSON.stringify(OTHER_STATE)).length;
      assert.ok(secondItem.evaluated_tokens <= stateTokens + 16, "the state and a short closing");
      assert.ok(firstItem.evaluated_tokens > 3 * secondItem.evaluated_tokens);
    });

    it("brings the question prefix back from its saved state after another question, with a cold run's results", async () => {
      const question = { ...queues, layout: "question-first-v1" as const };
      const [alone] = await cold({ state: OTHER_STATE, questions: [question] });
      await scorer.clearCache();
      await scorer.scoreBatch({ state: STATE, questions: [question] });
      await scorer.scoreBatch({ state: STATE, questions: [{ ...urgency, layout: "question-first-v1" }] });
      const before = scorer.cacheStats();
      const again = first(await scorer.scoreBatch({ state: OTHER_STATE, questions: [question] }));
      assert.equal(scorer.cacheStats().state_file_hits, before.state_file_hits + 1);
      assert.deepEqual(again.probabilities, alone?.probabilities);
    });

    it("answers a batch of both layouts in request order, each as it would be alone", async () => {
      const questions: DecisionQuestion[] = [
        route,
        { ...urgency, layout: "question-first-v1" },
        { ...queues, id: "queue-sf" },
        { ...queues, layout: "question-first-v1" },
      ];
      const alone: DecisionResult[] = [];
      for (const question of questions) alone.push(...(await cold({ state: STATE, questions: [question] })));
      const together = await cold({ state: STATE, questions });
      assert.deepEqual(
        together.map((result) => [result.id, result.prompt_version]),
        [
          ["route", "direct-options-v1"],
          ["urgency", "question-first-v1"],
          ["queue-sf", "direct-options-v1"],
          ["queue", "question-first-v1"],
        ],
      );
      for (const [index, result] of together.entries()) {
        assert.deepEqual(result.probabilities, alone[index]?.probabilities);
      }
    });

    it("is chosen by auto where it evaluates fewer tokens", async () => {
      const versions = async (state: string, questions: DecisionQuestion[]): Promise<string[]> =>
        (await cold({ state, questions })).map((result) => result.prompt_version);
      const auto = (question: DecisionQuestion): DecisionQuestion => ({ ...question, layout: "auto" });
      const longState = `${STATE} ${"The customer attached invoices, screenshots and a long description. ".repeat(12)}`;
      assert.deepEqual(await versions(STATE, [auto(queues)]), ["question-first-v1"]);
      assert.deepEqual(
        await versions(longState, [auto(route)]),
        ["question-first-v1"],
        "one question alone: the state is evaluated once either way, the question part is cached",
      );
      assert.deepEqual(
        await versions(longState, [auto(route), auto(urgency)]),
        ["direct-options-v1", "direct-options-v1"],
        "two short questions on a long state: the state once beats the state twice",
      );
      assert.deepEqual(await versions(longState, [auto(route), auto(urgency), auto(queues)]), [
        "direct-options-v1",
        "direct-options-v1",
        "question-first-v1",
      ]);
      assert.deepEqual(await versions(STATE, [route, auto(queues)]), [
        "direct-options-v1",
        "question-first-v1",
      ]);
    });
  });

  describe("System One questions", () => {
    it("carry their layout and debiasing to the engine and report them with the answer", async () => {
      const response = await answerSystemOne(scorer, {
        state: STATE,
        questions: {
          team: {
            type: "choice",
            instructions: "Which team?",
            criteria: ["billing", "technical", "sales"],
            layout: "question-first-v1",
            debias: "cyclic",
          },
          refund: { type: "noul", instructions: "Is a refund asked?" },
        },
      });
      const team = response.answers.team;
      assert.ok(team?.type === "choice");
      assert.equal(team.prompt_version, "question-first-v1");
      assert.equal(team.debias?.rotations, 3);
      assert.ok((team.debias?.order_sensitivity ?? -1) >= 0);
      assert.equal(response.answers.refund?.prompt_version, "direct-options-v1", "the default layout");
      assert.equal(response.answers.refund?.debias, undefined, "no debiasing asked for, none reported");
    });
  });

  describe("cyclic option-order debiasing", () => {
    it("gives exactly the same answer when the options come in a rotated order", async () => {
      const given = { ...urgency, debias: "cyclic" as const };
      const rotated = { ...given, options: [...urgency.options.slice(2), ...urgency.options.slice(0, 2)] };
      const [a] = await cold({ state: STATE, questions: [given] });
      const [b] = await cold({ state: STATE, questions: [rotated] });
      assert.ok(a && b);
      for (const option of urgency.options)
        assert.equal(probabilityOf(a, option.id), probabilityOf(b, option.id));
      assert.equal(a.debias?.order_sensitivity, b.debias?.order_sensitivity);
      assert.equal(a.debias?.rotations, 4);
      assert.deepEqual(new Set(a.debias?.prompt_sha256s), new Set(b.debias?.prompt_sha256s));
      assert.ok(Math.abs(a.probabilities.reduce((x, y) => x + y, 0) - 1) < 1e-12);
    });

    it("makes identical options exactly equally likely and reports the position bias as the sensitivity", async () => {
      const twins: DecisionOption[] = [
        { id: "first", description: "Escalate" },
        { id: "second", description: "Escalate" },
      ];
      const plain = { id: "twins", question: "What should happen?", options: twins };
      const [biased] = await cold({ state: STATE, questions: [plain] });
      const [debiased] = await cold({ state: STATE, questions: [{ ...plain, debias: "cyclic" }] });
      assert.ok(biased && debiased);
      // Both rotations are the same prompt: whatever the model favours is the slot, not the option.
      assert.deepEqual(debiased.probabilities, [0.5, 0.5]);
      const bias = Math.abs((biased.probabilities[0] ?? 0) - (biased.probabilities[1] ?? 0));
      assert.ok(bias > 0, "the model prefers one slot");
      assert.ok(Math.abs((debiased.debias?.order_sensitivity ?? -1) - bias) < 1e-12);
    });

    it("costs one question part per rotation on one evaluated state", async () => {
      const [plainCold] = await cold({ state: STATE, questions: [urgency] });
      const shared = first(await scorer.scoreBatch({ state: STATE, questions: [urgency] })).cached_tokens;
      const [debiased] = await cold({
        state: STATE,
        questions: [{ ...urgency, debias: "cyclic", debiasRotations: 2 }],
      });
      assert.ok(plainCold && debiased);
      assert.equal(debiased.debias?.rotations, 2);
      assert.equal(debiased.debias?.prompt_sha256s.length, 2);
      assert.equal(debiased.debias?.prompt_sha256s[0], plainCold.prompt_sha256, "the given order first");
      // Rotations 0 and 2 of 4: the second one reuses the state and the closing prefix.
      const rotated = { ...urgency, options: [...urgency.options.slice(2), ...urgency.options.slice(0, 2)] };
      const secondTokens = promptTokens(STATE, rotated).length;
      assert.equal(debiased.cached_tokens, shared);
      assert.equal(debiased.evaluated_tokens, plainCold.evaluated_tokens + secondTokens - shared);
      assert.equal(debiased.input_tokens, plainCold.input_tokens + secondTokens);
    });
  });
});

describe("Scorer with parallel sequences on tiny-qwen3", () => {
  let serial: Scorer;
  let parallel: Scorer;
  let merged: Scorer;
  const batches: DecisionBatch[] = [
    { state: STATE, questions: [route, urgency] },
    { state: OTHER_STATE, questions: [urgency] },
    { state: "Please cancel my order #1234, it has not shipped yet.", questions: [route] },
    { state: { ticket: "T-9", text: "Refund the duplicate charge" }, questions: [urgency, route] },
  ];

  // One binding and one model for the three scorers: each creates only its own context.
  let llama: Llama;
  let model: LlamaModel;

  before(async () => {
    const modelPath = await ensureGeneratedModel("tiny-qwen3");
    // Several contexts on one binding: maxThreads 0, as Scorer's `llama` option asks.
    llama = await getLlama({ gpu: false, build: "never", maxThreads: 0, logLevel: "error" as never });
    model = await llama.loadModel({ modelPath });
    const shared = { modelPath, llama, model };
    serial = await Scorer.load({ ...shared, threads: 2, contextSize: 2048, cacheMaxBytes: 0 });
    parallel = await Scorer.load({
      ...shared,
      threads: 2,
      contextSize: 2048,
      cacheMaxBytes: 0,
      parallelSequences: 2,
    });
    merged = await Scorer.load({
      ...shared,
      threads: 2,
      contextSize: 2048,
      cacheMaxBytes: 0,
      parallelSequences: 2,
      parallelBatching: "merged",
    });
  });
  after(async () => {
    await serial.dispose();
    await parallel.dispose();
    await merged.dispose();
    await model.dispose();
    await llama.dispose();
  });

  async function serialResults(): Promise<BatchResult[]> {
    const results: BatchResult[] = [];
    for (const batch of batches) results.push(await serial.scoreBatch(batch));
    return results;
  }

  it("answers one call at a time exactly as the serial scorer", async () => {
    assert.equal(parallel.parallelSequences, 2);
    for (const batch of batches) {
      const want = await serial.scoreBatch(batch);
      const got = await parallel.scoreBatch(batch);
      assert.deepEqual(
        got.results.map((result) => result.probabilities),
        want.results.map((result) => result.probabilities),
      );
    }
  });

  it("answers concurrent calls exactly as the serial scorer", async () => {
    const want = await serialResults();
    for (let round = 0; round < 2; round += 1) {
      const got = await Promise.all(batches.map((batch) => parallel.scoreBatch(batch)));
      assert.deepEqual(
        got.map((batchResult) => batchResult.results.map((result) => result.probabilities)),
        want.map((batchResult) => batchResult.results.map((result) => result.probabilities)),
      );
    }
  });

  it("answers concurrent calls with merged decode steps as the serial scorer chooses (≤ 1e-2)", async () => {
    const want = await serialResults();
    const got = await Promise.all(batches.map((batch) => merged.scoreBatch(batch)));
    got.forEach((batchResult, index) => {
      batchResult.results.forEach((result, at) => {
        const expected = want[index]?.results[at];
        assert.ok(expected);
        assert.equal(result.id, expected.id);
        const difference = Math.max(
          ...result.probabilities.map((p, i) => Math.abs(p - (expected.probabilities[i] ?? Number.NaN))),
        );
        assert.ok(difference <= 1e-2, `${result.id}: ${difference}`);
      });
    });
  });

  it("keeps one live state per sequence and sends a call to the sequence holding its state", async () => {
    await parallel.clearCache();
    const a = { state: STATE, questions: [route] };
    const b = { state: OTHER_STATE, questions: [urgency] };
    await Promise.all([parallel.scoreBatch(a), parallel.scoreBatch(b)]);
    const before = parallel.cacheStats();
    await parallel.scoreBatch({ state: OTHER_STATE, questions: [route] });
    await parallel.scoreBatch({ state: STATE, questions: [urgency] });
    const stats = parallel.cacheStats();
    assert.equal(stats.hits, before.hits + 2, "both states were still live");
    assert.equal(stats.state_files, 0, "no state file was involved");
  });
});
