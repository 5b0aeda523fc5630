import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ComparableAnswer,
  type ComparableDecision,
  compareDecisions,
  formatComparison,
} from "../../../evaluation/comparison/index.js";
import { wilsonScoreInterval } from "../../../evaluation/metrics/index.js";

const modelAnswer = (answer: string, top: number): ComparableAnswer => ({
  answer,
  probability: top,
  distribution: { [answer]: top, other: 1 - top },
  source: "model",
});
const fallback = (modelsAnswer: string, top: number): ComparableAnswer => ({
  answer: "triage",
  probability: 0.1,
  distribution: { [modelsAnswer]: top, triage: 0.1 },
  source: "fallback",
  model_answer: modelsAnswer,
});
const decided = (queue: ComparableAnswer, rules: string[] = []): ComparableDecision => ({
  status: queue.source === "fallback" ? "fallback" : "decided",
  answers: { queue },
  rules_fired: rules.map((name) => ({ name })),
});

describe("compareDecisions", () => {
  it("counts agreement, moves to and from review, transitions and review load per side", () => {
    const a = new Map([
      ["1", decided(modelAnswer("billing", 0.95))],
      ["2", decided(modelAnswer("billing", 0.92))],
      ["3", decided(fallback("technical", 0.55))],
      ["4", decided(modelAnswer("technical", 0.85))],
    ]);
    const b = new Map([
      ["1", decided(modelAnswer("billing", 0.97))],
      ["2", decided(fallback("billing", 0.6))],
      ["3", decided(modelAnswer("technical", 0.91))],
      ["4", decided(modelAnswer("billing", 0.81))],
    ]);

    const report = compareDecisions({ a, b });

    assert.equal(report.sampled, 4);
    const queue = report.questions.queue;
    assert.ok(queue !== undefined);
    assert.equal(queue.agreed, 1, "only item 1 keeps its standing answer");
    assert.equal(queue.agreement, 0.25);
    assert.equal(queue.model_agreement, 0.75, "items 1, 2 and 3 keep the model's answer");
    assert.deepEqual(queue.to_review, { count: 1, share: 0.25 });
    assert.deepEqual(queue.to_automated, { count: 1, share: 0.25 });
    assert.deepEqual(queue.review_load, { a: { count: 1, share: 0.25 }, b: { count: 1, share: 0.25 } });
    assert.deepEqual(report.status.transitions, { "decided→fallback": 1, "fallback→decided": 1 });
    assert.deepEqual(report.status.changed, { count: 2, share: 0.5 });
    assert.deepEqual(report.review_load.b, { count: 1, share: 0.25 });
    assert.deepEqual(
      queue.disagreements.map((item) => [item.id, item.a, item.b]),
      [
        ["2", "billing", "triage"],
        ["3", "triage", "technical"],
        ["4", "technical", "billing"],
      ],
    );
  });

  it("shifts the confidence histogram by the difference of the bins", () => {
    const a = new Map([
      ["1", decided(modelAnswer("x", 0.95))],
      ["2", decided(modelAnswer("x", 0.55))],
    ]);
    const b = new Map([
      ["1", decided(modelAnswer("x", 0.65))],
      ["2", decided(modelAnswer("x", 0.58))],
    ]);
    const confidence = compareDecisions({ a, b }).questions.queue?.confidence;
    assert.deepEqual(confidence?.a, [0, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert.deepEqual(confidence?.b, [0, 0, 0, 0, 0, 1, 1, 0, 0, 0]);
    assert.deepEqual(confidence?.shift, [0, 0, 0, 0, 0, 0, 1, 0, 0, -1]);
    assert.ok(Math.abs((confidence?.mean_a ?? 0) - 0.75) < 1e-12);
    assert.ok(Math.abs((confidence?.mean_b ?? 0) - 0.615) < 1e-12);
  });

  it("lists the rules that fire on one side only", () => {
    const a = new Map([
      ["1", decided(modelAnswer("x", 0.9), ["vip"])],
      ["2", decided(modelAnswer("x", 0.9), ["vip", "refund"])],
    ]);
    const b = new Map([
      ["1", decided(modelAnswer("x", 0.9), ["vip", "refund"])],
      ["2", decided(modelAnswer("x", 0.9), ["vip"])],
    ]);
    assert.deepEqual(compareDecisions({ a, b }).rules, [
      { name: "refund", a: 1, b: 1, only_a: 1, only_b: 1 },
      { name: "vip", a: 2, b: 2, only_a: 0, only_b: 0 },
    ]);
  });

  it("grades each side's model answer against a person's answer with Wilson intervals, only where one exists", () => {
    const a = new Map([
      ["1", decided(modelAnswer("billing", 0.9))],
      ["2", decided(fallback("technical", 0.5))],
      ["3", decided(modelAnswer("billing", 0.9))],
    ]);
    const b = new Map([
      ["1", decided(modelAnswer("billing", 0.9))],
      ["2", decided(modelAnswer("billing", 0.9))],
      ["3", decided(modelAnswer("technical", 0.9))],
    ]);
    const labels = new Map([
      ["1", { queue: "billing" }],
      ["2", { queue: "billing" }],
    ]);
    const accuracy = compareDecisions({ a, b, labels }).questions.queue?.accuracy;
    assert.equal(accuracy?.labelled, 2);
    assert.equal(accuracy?.a.correct, 1, "the model's answer under a's fallback was technical");
    assert.equal(accuracy?.b.correct, 2);
    assert.deepEqual(accuracy?.a.interval, wilsonScoreInterval(1, 2));
    assert.deepEqual(accuracy?.b.interval, wilsonScoreInterval(2, 2));
    assert.equal(compareDecisions({ a, b }).questions.queue?.accuracy, undefined);
  });

  it("compares only items both sides have, yes/no answers as text, and counts the rest", () => {
    const yes: ComparableAnswer = { answer: true, probability: 0.8, source: "model" };
    const a = new Map([
      ["1", { status: "decided", answers: { needs_human: yes } }],
      ["2", decided(modelAnswer("x", 0.9))],
    ]);
    const b = new Map([
      ["1", { status: "decided", answers: { needs_human: { ...yes, answer: "yes" } } }],
      ["3", decided(modelAnswer("x", 0.9))],
    ]);
    const report = compareDecisions({ a, b });
    assert.equal(report.sampled, 1);
    assert.equal(report.only_a, 1);
    assert.equal(report.only_b, 1);
    assert.equal(report.questions.needs_human?.agreement, 1);
    assert.equal(report.questions.queue, undefined);
    assert.deepEqual(compareDecisions({ a: new Map(), b: new Map() }).questions, {});
  });

  it("prints agreement, transitions, review load and accuracy for a person", () => {
    const a = new Map([["1", decided(modelAnswer("billing", 0.95))]]);
    const b = new Map([["1", decided(fallback("billing", 0.6))]]);
    const lines = formatComparison(
      compareDecisions({ a, b, labels: new Map([["1", { queue: "billing" }]]) }),
      {
        a: "live",
        b: "seed-7",
      },
    ).join("\n");
    assert.match(lines, /1 item\(s\) compared \(live vs seed-7\)/);
    assert.match(lines, /decided→fallback: 1/);
    assert.match(lines, /review load \(status fallback\): live 0\.0% \(0\), seed-7 100\.0% \(1\)/);
    assert.match(
      lines,
      /question queue: the models' own answers agree 100\.0% \(1\/1\); the answers that stand \(after rules and fallbacks\) agree 0\.0% \(0\/1\), live 0 and seed-7 1 of them on the fallback/,
    );
    assert.match(lines, /accuracy on 1 item\(s\) a person answered: live 100\.0% \[/);
    assert.match(lines, /differs: 1: billing → triage/);
    assert.doesNotMatch(lines, /more differ/, "nothing left out");
  });

  it("says how many differing items a cut list left out, and how to see them", () => {
    const a = new Map(
      Array.from({ length: 12 }, (_, index) => [String(index), decided(modelAnswer("billing", 0.95))]),
    );
    const b = new Map(
      Array.from({ length: 12 }, (_, index) => [String(index), decided(modelAnswer("sales", 0.9))]),
    );
    const lines = formatComparison(compareDecisions({ a, b }), { more: "--listed <n> lists more" }).join(
      "\n",
    );
    assert.equal(lines.match(/differs: /g)?.length, 10);
    assert.match(lines, /… and 2 more differ \(the first 10 of 12 listed; --listed <n> lists more\)/);
  });
});
