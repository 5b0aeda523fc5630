/**
 * Inverse-probability weights of audit items: a fallback reaches a person with probability 1, an
 * audit item with probability audit_rate, so `calibrate` weighs their labels 1 and 1/audit_rate
 * and estimates the accuracy of automated decisions from the audit items alone.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import { calibratePolicy } from "../../../evaluation/calibration/calibratePolicy.js";
import { collectForecasts, type LabelledForecast } from "../../../evaluation/calibration/collectForecasts.js";
import { estimateAutomatedAccuracy } from "../../../evaluation/calibration/estimateAutomatedAccuracy.js";
import { formatCalibrationReport } from "../../../evaluation/calibration/formatCalibrationReport.js";
import { readLabelledDecisions } from "../../../evaluation/calibration/readLabelledDecisions.js";
import { predictedLabel } from "../../../evaluation/metrics/predictedLabel.js";
import { wilsonScoreInterval } from "../../../evaluation/metrics/wilsonScoreInterval.js";
import { seededRandom, syntheticItems } from "../syntheticForecasts.js";

const THRESHOLD = 0.9;
const AUDIT_RATE = 0.1;
const LABELS = ["billing", "tech", "other"];

const POLICY = parsePolicy(
  `name: routing
version: "1"
description: test policy
audit_rate: ${AUDIT_RATE}
questions:
  queue:
    type: choice
    instructions: Which queue?
    criteria: {billing: Money, tech: Tech, other: Else}
    threshold: ${THRESHOLD}
    fallback: other
`,
  "routing.yaml",
);

/**
 * A policy's whole traffic as the pipeline sees it: the model over-confident by T = 2; items
 * below the threshold fall back and are all reviewed, the decided ones are audited at
 * AUDIT_RATE. Every item's true label is known here, which no deployment has.
 */
function traffic(n: number) {
  const items = syntheticItems({ n, labels: LABELS, trueTemperature: 2, seed: 5, scale: 5 });
  const draw = seededRandom(77);
  return items.map((item) => {
    const confidence = Math.max(...item.forecast.probabilities);
    const answer = predictedLabel(item.forecast, "first-offered") ?? "";
    const decided = confidence >= THRESHOLD;
    return { item, answer, decided, labelled: !decided || draw() < AUDIT_RATE };
  });
}

/** The labelled lines an export of that traffic writes; `audit` false drops the audit marks. */
function labelledLines(all: ReturnType<typeof traffic>, audit = true): string {
  return all
    .filter((entry) => entry.labelled)
    .map(({ item, answer, decided }) =>
      JSON.stringify({
        policy: "routing",
        id: item.id,
        policy_version: "1",
        ...(decided && audit ? { audit: { rate: AUDIT_RATE } } : {}),
        questions: {
          queue: {
            distribution: Object.fromEntries(
              LABELS.map((label, k) => [label, item.forecast.probabilities[k]]),
            ),
            label: item.forecast.expected,
            model_answer: answer,
          },
        },
      }),
    )
    .join("\n");
}

describe("collectForecasts with audit items", () => {
  it("weighs an audit item's label 1/audit_rate and a fallback's 1, and grades the automated answer", () => {
    const text = [
      { id: "a", audit: { rate: 0.25 }, label: "tech", model_answer: "tech" },
      { id: "b", audit: { rate: 0.25 }, label: "billing", model_answer: "tech" },
      { id: "c", label: "other" },
    ]
      .map(({ id, label, model_answer, ...rest }) =>
        JSON.stringify({
          policy: "routing",
          id,
          ...rest,
          questions: {
            queue: { distribution: { billing: 0.02, tech: 0.95, other: 0.03 }, label, model_answer },
          },
        }),
      )
      .join("\n");

    const forecasts = collectForecasts(POLICY, readLabelledDecisions(text)).questions.get("queue") ?? [];

    assert.deepEqual(
      forecasts.map((forecast) => [
        forecast.id,
        forecast.weight,
        forecast.raw.weight,
        forecast.audit?.correct,
      ]),
      [
        ["a", 4, 4, true],
        ["b", 4, 4, false],
        ["c", 1, 1, undefined],
      ],
    );
  });

  it("refuses an audit rate of 0 (no item can have been audited with it)", () => {
    const line = JSON.stringify({
      policy: "routing",
      id: "a",
      audit: { rate: 0 },
      questions: { queue: { distribution: { tech: 1 }, label: "tech" } },
    });

    assert.throws(() => readLabelledDecisions(line), /audit/);
  });
});

describe("estimateAutomatedAccuracy", () => {
  const audited = (correct: boolean, rate: number): LabelledForecast => ({
    id: "x",
    line: 1,
    recorded: { labels: ["a"], probabilities: [1], expected: "a" },
    raw: { labels: ["a"], probabilities: [1], expected: "a" },
    applied_temperature: 1,
    weight: 1 / rate,
    audit: { rate, automated_answer: "a", correct },
  });

  it("is the confirmed share of the audit items with Wilson's interval: 46 of 50 → 0.92 [0.8116, 0.9685]", () => {
    const forecasts = [
      ...Array.from({ length: 46 }, () => audited(true, 0.05)),
      ...Array.from({ length: 4 }, () => audited(false, 0.05)),
    ];

    const estimate = estimateAutomatedAccuracy(forecasts);

    assert.ok(estimate !== undefined);
    assert.deepEqual([estimate.audited, estimate.agreed, estimate.confidence], [50, 46, 0.95]);
    assert.ok(Math.abs(estimate.accuracy - 0.92) < 1e-12);
    assert.ok(Math.abs(estimate.effective_n - 50) < 1e-9);
    assert.deepEqual(
      [estimate.interval.lower.toFixed(4), estimate.interval.upper.toFixed(4)],
      ["0.8116", "0.9685"],
    );
  });

  it("weighs items audited at different rates by 1/rate and widens the interval by the effective n", () => {
    // 10 at rate 0.5 (weight 2), all confirmed; 10 at rate 0.05 (weight 20), 5 confirmed.
    const forecasts = [
      ...Array.from({ length: 10 }, () => audited(true, 0.5)),
      ...Array.from({ length: 5 }, () => audited(true, 0.05)),
      ...Array.from({ length: 5 }, () => audited(false, 0.05)),
    ];

    const estimate = estimateAutomatedAccuracy(forecasts);

    assert.ok(estimate !== undefined);
    // (10·2 + 5·20) / (10·2 + 10·20) = 120 / 220. n_eff = p(1 − p) / v, with the design variance
    // v = Σ w²(y − p)² / (Σ w)² (≈ 11.8; Kish's 220² / (10·4 + 10·400) would be 11.98).
    const p = 120 / 220;
    assert.ok(Math.abs(estimate.accuracy - p) < 1e-12);
    const v = (10 * 4 * (1 - p) ** 2 + 5 * 400 * (1 - p) ** 2 + 5 * 400 * p ** 2) / 220 ** 2;
    assert.ok(Math.abs(estimate.effective_n - (p * (1 - p)) / v) < 1e-9);
    const plain = wilsonScoreInterval(15, 20);
    assert.ok(estimate.interval.upper - estimate.interval.lower > plain.upper - plain.lower);
  });

  it("uses the audit count as n when every rate is the same, and Kish's n when every item agrees", () => {
    const same = [
      ...Array.from({ length: 46 }, () => audited(true, 0.1)),
      ...Array.from({ length: 4 }, () => audited(false, 0.1)),
    ];
    assert.ok(Math.abs((estimateAutomatedAccuracy(same)?.effective_n ?? 0) - 50) < 1e-9);
    const agreeing = [audited(true, 0.5), audited(true, 0.05)];
    assert.ok(Math.abs((estimateAutomatedAccuracy(agreeing)?.effective_n ?? 0) - 22 ** 2 / 404) < 1e-9);
  });

  it("has nothing to say without audit items", () => {
    const fallback = { ...audited(true, 1), weight: 1, audit: undefined };

    assert.equal(estimateAutomatedAccuracy([fallback]), undefined);
  });
});

describe("calibratePolicy with audit items", () => {
  const all = traffic(8000);
  const decided = all.filter((entry) => entry.decided);
  const populationAccuracy = (entries: typeof all): number =>
    entries.filter((entry) => entry.answer === entry.item.forecast.expected).length / entries.length;

  it("estimates the automated decisions' accuracy from the audit items, the true one inside its interval", () => {
    const collected = collectForecasts(POLICY, readLabelledDecisions(labelledLines(all)));

    const queue = calibratePolicy(POLICY, collected.questions).questions[0];
    const estimate = queue?.automated_accuracy;

    const truth = populationAccuracy(decided);
    assert.ok(estimate !== undefined);
    assert.equal(estimate.audited, queue?.audit_n);
    assert.equal(estimate.audited, all.filter((entry) => entry.decided && entry.labelled).length);
    assert.ok(
      estimate.interval.lower <= truth && truth <= estimate.interval.upper,
      `${truth} in [${estimate.interval.lower}, ${estimate.interval.upper}]`,
    );
    assert.match(
      formatCalibrationReport(calibratePolicy(POLICY, collected.questions)),
      /Accuracy of automated decisions \(from \d+ audit items, \d+ confirmed\): 0\.\d{4}, 95 % Wilson interval \[0\.\d{4}, 0\.\d{4}\]/,
    );
  });

  it("describes the whole traffic with the weights, and only the uncertain part without them", () => {
    const weighted = collectForecasts(POLICY, readLabelledDecisions(labelledLines(all)));
    const unweighted = collectForecasts(POLICY, readLabelledDecisions(labelledLines(all, false)));

    const withWeights = calibratePolicy(POLICY, weighted.questions, { heldOut: { fraction: 0.5, seed: 1 } })
      .questions[0];
    const withoutWeights = calibratePolicy(POLICY, unweighted.questions, {
      heldOut: { fraction: 0.5, seed: 1 },
    }).questions[0];

    // Of all traffic, the share the current threshold automates and the model's accuracy.
    const share = decided.length / all.length;
    const accuracy = populationAccuracy(all);
    const coverage = (report: typeof withWeights) => report?.current_held_out?.coverage ?? Number.NaN;
    const heldOutAccuracy = (report: typeof withWeights) => report?.held_out?.before.accuracy ?? Number.NaN;
    assert.ok(
      Math.abs(coverage(withWeights) - share) < 0.03,
      `weighted coverage ${coverage(withWeights)} vs ${share}`,
    );
    assert.ok(
      share - coverage(withoutWeights) > 0.2,
      `unweighted coverage ${coverage(withoutWeights)} vs ${share}`,
    );
    assert.ok(
      Math.abs(heldOutAccuracy(withWeights) - accuracy) < 0.03,
      `weighted accuracy ${heldOutAccuracy(withWeights)} vs ${accuracy}`,
    );
    assert.ok(
      accuracy - heldOutAccuracy(withoutWeights) > 0.1,
      `unweighted accuracy ${heldOutAccuracy(withoutWeights)} vs ${accuracy}`,
    );
    assert.equal(withoutWeights?.automated_accuracy, undefined);
  });
});
