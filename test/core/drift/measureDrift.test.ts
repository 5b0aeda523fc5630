import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type DriftObservation,
  measureDrift,
  observeOutcome,
  resolveDriftOptions,
  rollingWindows,
  windowsSince,
} from "../../../core/drift/index.js";
import { generateTraffic, MIX_AFTER, MIX_BEFORE, TICKET_KINDS } from "../../support/driftTraffic.js";

const HOUR = 3_600_000;
const START = Date.parse("2026-12-01T00:00:00.000Z");
const OPTIONS = resolveDriftOptions({ windowMinutes: 60, baselineWindows: 12 });

function traffic(shiftAt: number | undefined, seed = 7): DriftObservation[] {
  return generateTraffic({
    policy: "ticket-routing",
    question: "route",
    start: START,
    hours: 24,
    perHour: 60,
    kinds: TICKET_KINDS,
    mixAt: (at) => (shiftAt !== undefined && at >= shiftAt ? MIX_AFTER : MIX_BEFORE),
    threshold: 0.6,
    fallback: "technical",
    seed,
  }).flatMap((outcome) => observeOutcome(outcome));
}

function observation(at: number, answer: string, confidence: number, reviewed?: string): DriftObservation {
  return {
    question: "route",
    at,
    answer,
    confidence,
    labels: ["billing", "technical", "account", "legal"],
    ...(reviewed === undefined ? {} : { reviewed }),
  };
}

describe("rollingWindows", () => {
  it("puts the window just before the time and the baseline's windows just before it", () => {
    const windows = rollingWindows(START + 13 * HOUR, { windowMinutes: 60, baselineWindows: 12 });

    assert.deepEqual(windows, {
      window: { since: START + 12 * HOUR, until: START + 13 * HOUR },
      baseline: { since: START, until: START + 12 * HOUR },
    });
  });

  it("windowsSince takes the window from --since and the baseline before it; it refuses an empty window", () => {
    const windows = windowsSince(START + 5 * HOUR, START + 7 * HOUR, {
      windowMinutes: 60,
      baselineWindows: 2,
    });

    assert.deepEqual(windows.baseline, { since: START + 3 * HOUR, until: START + 5 * HOUR });
    assert.throws(() => windowsSince(START, START, OPTIONS), /the start before the end/);
  });
});

describe("measureDrift", () => {
  it("crosses the threshold only in windows after a planted shift, never before it", () => {
    const shift = START + 16 * HOUR;
    const observations = traffic(shift);

    const over = [];
    for (let hour = 13; hour <= 24; hour += 1) {
      const at = START + hour * HOUR;
      const report = measureDrift(observations, rollingWindows(at, OPTIONS), OPTIONS);
      if (report.over_threshold) over.push(at);
      if (at <= shift) assert.equal(report.over_threshold, false, `at hour ${hour}: ${report.distance}`);
    }

    assert.ok(over.length > 0 && over.every((at) => at > shift), JSON.stringify(over));
    assert.ok(over.includes(shift + HOUR), "the first full window after the shift is over");
  });

  it("stays under the threshold on unchanged traffic, with room above the sampling noise", () => {
    const observations = traffic(undefined, 11);

    for (let hour = 13; hour <= 24; hour += 1) {
      const report = measureDrift(observations, rollingWindows(START + hour * HOUR, OPTIONS), OPTIONS);
      const [question] = report.questions;

      assert.equal(report.over_threshold, false, `hour ${hour}: ${report.distance}`);
      assert.ok(question?.enough && (question.distance ?? 1) < OPTIONS.threshold / 2);
    }
  });

  it("names the options that moved, the largest change first, with both shares", () => {
    const baseline = [
      ...Array.from({ length: 60 }, (_, index) => observation(START + index, "billing", 0.9)),
      ...Array.from({ length: 40 }, (_, index) => observation(START + 100 + index, "technical", 0.9)),
    ];
    const window = [
      ...Array.from({ length: 20 }, (_, index) => observation(START + HOUR + index, "billing", 0.9)),
      ...Array.from({ length: 45 }, (_, index) => observation(START + HOUR + 100 + index, "technical", 0.9)),
      ...Array.from({ length: 35 }, (_, index) => observation(START + HOUR + 200 + index, "account", 0.5)),
    ];
    const options = resolveDriftOptions({ baselineWindows: 1, minOutcomes: 10 });

    const report = measureDrift([...baseline, ...window], rollingWindows(START + 2 * HOUR, options), options);

    const [question] = report.questions;
    assert.ok(question !== undefined);
    assert.deepEqual(
      question.moved.map((entry) => [entry.option, entry.baseline, entry.window]),
      [
        ["billing", 0.6, 0.2],
        ["account", 0, 0.35],
      ],
    );
    assert.equal(question.over_threshold, true);
    assert.ok((question.confidence_distance ?? 0) > 0 && (question.answer_distance ?? 0) > 0);
    assert.equal(
      question.distance,
      Math.max(question.answer_distance ?? 0, question.confidence_distance ?? 0),
    );
    assert.deepEqual(question.confidence.window.slice(5, 10), [0.35, 0, 0, 0, 0.65]);
  });

  it("does not count a question over the threshold while a side holds fewer answers than minOutcomes", () => {
    const observations = [observation(START, "billing", 0.9), observation(START + HOUR, "account", 0.4)];
    const options = resolveDriftOptions({ baselineWindows: 1 });

    const report = measureDrift(observations, rollingWindows(START + 2 * HOUR, options), options);

    const [question] = report.questions;
    assert.equal(question?.enough, false);
    assert.ok((question?.distance ?? 0) > options.threshold);
    assert.equal(question?.over_threshold, false);
    assert.equal(report.distance, null);
  });

  it("lists the policy's declared questions and options even without answers", () => {
    const options = resolveDriftOptions();

    const report = measureDrift([], rollingWindows(START, options), options, [
      { id: "route", options: ["billing", "technical"] },
    ]);

    assert.deepEqual(
      report.questions.map((question) => [
        question.question,
        question.distance,
        question.answers.map((a) => a.option),
      ]),
      [["route", null, ["billing", "technical"]]],
    );
  });

  it("flags options rarely chosen and options reviewers keep replacing by the same other one", () => {
    const observations = [
      ...Array.from({ length: 95 }, (_, index) => observation(START + index, "billing", 0.9)),
      // account: the model says it, reviewers say technical 4 times out of 5
      ...["technical", "technical", "technical", "technical", "account"].map((reviewed, index) =>
        observation(START + 200 + index, "account", 0.55, reviewed),
      ),
    ];
    const options = resolveDriftOptions({ baselineWindows: 1, minOutcomes: 50 });

    const report = measureDrift(observations, rollingWindows(START + 2 * HOUR, options), options);

    assert.deepEqual(report.questions[0]?.flags, [
      { kind: "rare", option: "technical", share: 0, count: 0 },
      { kind: "rare", option: "legal", share: 0, count: 0 },
      { kind: "confused", option: "account", with: "technical", share: 0.8, reviews: 5 },
    ]);
  });

  it("refuses options out of range, naming each", () => {
    assert.throws(
      () => resolveDriftOptions({ windowMinutes: 0, threshold: 2 }),
      (error: Error) => /windowMinutes/.test(error.message) && /threshold/.test(error.message),
    );
  });
});

describe("observeOutcome", () => {
  it("takes the model's top label and probability, and a person's answer where one stands", () => {
    const [outcome] = generateTraffic({
      policy: "p",
      question: "route",
      start: START,
      hours: 1,
      perHour: 1,
      kinds: [{ name: "k", distribution: { billing: 0.3, technical: 0.7 } }],
      mixAt: () => ({ k: 1 }),
      threshold: 0.95,
      fallback: "billing",
      seed: 1,
      jitter: 0,
    });
    assert.ok(outcome?.answers?.route !== undefined);
    const reviewed = {
      ...outcome,
      status: "reviewed" as const,
      answers: { route: { ...outcome.answers.route, answer: "account", source: "human" as const } },
    };

    const [observed] = observeOutcome(reviewed);

    assert.deepEqual(observed, {
      question: "route",
      at: Date.parse(outcome.created_at),
      answer: "technical",
      confidence: 0.7,
      labels: ["billing", "technical"],
      reviewed: "account",
    });
  });
});
