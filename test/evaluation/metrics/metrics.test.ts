import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { accuracy } from "../../../evaluation/metrics/accuracy.js";
import { brierScore } from "../../../evaluation/metrics/brierScore.js";
import { coverageErrorCurve } from "../../../evaluation/metrics/coverageErrorCurve.js";
import { expectedCalibrationError } from "../../../evaluation/metrics/expectedCalibrationError.js";
import { forecastMetrics } from "../../../evaluation/metrics/forecastMetrics.js";
import { gradeForecasts } from "../../../evaluation/metrics/gradeForecasts.js";
import { negativeLogLikelihood } from "../../../evaluation/metrics/negativeLogLikelihood.js";
import { predictedLabel } from "../../../evaluation/metrics/predictedLabel.js";
import type { Forecast, GradedDecision } from "../../../evaluation/metrics/types.js";

const close = (actual: number, expected: number, tolerance = 1e-12): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} ≠ ${expected}`);

function decisions(spec: [confidence: number, count: number, correct: number][]): GradedDecision[] {
  return spec.flatMap(([confidence, count, correct]) =>
    Array.from({ length: count }, (_, index) => ({ confidence, correct: index < correct })),
  );
}

describe("predictedLabel", () => {
  it("breaks ties towards the alphabetically smallest label, as JevBench does", () => {
    const tie: Forecast = {
      labels: ["track", "cancel", "billing"],
      probabilities: [0.4, 0.4, 0.2],
      expected: "x",
    };

    assert.equal(predictedLabel(tie), "cancel");
    assert.equal(predictedLabel(tie, "first-offered"), "track");
  });

  it("takes the most probable label whatever its position", () => {
    assert.equal(
      predictedLabel({ labels: ["b", "a", "c"], probabilities: [0.2, 0.3, 0.5], expected: "c" }),
      "c",
    );
  });
});

describe("accuracy", () => {
  it("counts argmax hits, a tie counted for the alphabetically smallest label", () => {
    const forecasts: Forecast[] = [
      { labels: ["no", "yes"], probabilities: [0.3, 0.7], expected: "yes" },
      { labels: ["no", "yes"], probabilities: [0.6, 0.4], expected: "yes" },
      { labels: ["yes", "no"], probabilities: [0.5, 0.5], expected: "no" },
    ];

    close(accuracy(forecasts), 2 / 3);
    close(accuracy(forecasts, { ties: "first-offered" }), 1 / 3);
    assert.ok(Number.isNaN(accuracy([])));
  });
});

describe("brierScore", () => {
  it("sums squared errors over the label set and averages (hand-computed)", () => {
    const forecasts: Forecast[] = [
      // (0.8 − 1)² + (0.2 − 0)² = 0.08
      { labels: ["a", "b"], probabilities: [0.8, 0.2], expected: "a" },
      // 0.5² + (0.3 − 1)² + 0.2² = 0.25 + 0.49 + 0.04 = 0.78
      { labels: ["a", "b", "c"], probabilities: [0.5, 0.3, 0.2], expected: "b" },
    ];

    close(brierScore(forecasts), (0.08 + 0.78) / 2);
  });

  it("is 0 for a certain right answer and 2 for a certain wrong one", () => {
    close(brierScore([{ labels: ["a", "b", "c"], probabilities: [1, 0, 0], expected: "a" }]), 0);
    close(brierScore([{ labels: ["a", "b", "c"], probabilities: [0, 1, 0], expected: "a" }]), 2);
  });
});

describe("negativeLogLikelihood", () => {
  it("averages −ln p of the expected label (hand-computed)", () => {
    const forecasts: Forecast[] = [
      { labels: ["a", "b"], probabilities: [0.5, 0.5], expected: "a" },
      { labels: ["a", "b", "c", "d"], probabilities: [0.25, 0.25, 0.25, 0.25], expected: "d" },
    ];

    close(negativeLogLikelihood(forecasts), (Math.LN2 + 2 * Math.LN2) / 2);
  });

  it("stays finite when the expected label had probability 0", () => {
    const value = negativeLogLikelihood([{ labels: ["a", "b"], probabilities: [1, 0], expected: "b" }]);

    close(value, -Math.log(1e-12), 1e-9);
  });
});

describe("expectedCalibrationError", () => {
  it("weights each bin's |accuracy − mean confidence| by its share (hand-computed)", () => {
    // Bin 9: 4 decisions at 0.95, 3 right → |0.75 − 0.95| = 0.2, weight 4/6.
    // Bin 5: 0.52 and 0.58, 1 right → |0.5 − 0.55| = 0.05, weight 2/6 (the mean, not the midpoint).
    const graded = [
      ...decisions([[0.95, 4, 3]]),
      { confidence: 0.52, correct: true },
      { confidence: 0.58, correct: false },
    ];

    const result = expectedCalibrationError(graded);

    close(result.ece, (4 / 6) * 0.2 + (2 / 6) * 0.05);
    assert.equal(result.n, 6);
    assert.equal(result.bins.length, 10);
    assert.deepEqual(
      result.bins.map((bin) => bin.n),
      [0, 0, 0, 0, 0, 2, 0, 0, 0, 4],
    );
    close(result.bins[5]?.mean_confidence ?? Number.NaN, 0.55);
    assert.equal(result.bins[0]?.accuracy, null);
  });

  it("is zero when each bin's accuracy equals its confidence, and 1 for certain wrong answers", () => {
    close(
      expectedCalibrationError(
        decisions([
          [0.25, 4, 1],
          [0.55, 20, 11],
          [0.95, 20, 19],
        ]),
      ).ece,
      0,
    );
    close(expectedCalibrationError(decisions([[1, 5, 0]])).ece, 1);
  });

  it("puts confidence 1 in the last bin and 0.1 in the second, clamping out-of-range values", () => {
    const result = expectedCalibrationError([
      { confidence: 1, correct: true },
      { confidence: 0.1, correct: true },
      { confidence: 1.3, correct: true },
      { confidence: -0.2, correct: false },
    ]);

    assert.equal(result.bins[9]?.n, 2);
    assert.equal(result.bins[1]?.n, 1);
    assert.equal(result.bins[0]?.n, 1);
  });
});

describe("gradeForecasts and coverageErrorCurve", () => {
  it("grade each forecast by its top probability and whether its argmax was right", () => {
    const graded = gradeForecasts([
      { labels: ["a", "b"], probabilities: [0.9, 0.1], expected: "b" },
      { labels: ["a", "b"], probabilities: [0.3, 0.7], expected: "b" },
    ]);

    assert.deepEqual(graded, [
      { confidence: 0.9, correct: false },
      { confidence: 0.7, correct: true },
    ]);
  });

  it("give coverage and error among the decisions at or above each threshold (hand-computed)", () => {
    const graded = [
      { confidence: 0.95, correct: true },
      { confidence: 0.92, correct: false },
      { confidence: 0.6, correct: true },
      { confidence: 0.4, correct: false },
    ];

    const curve = coverageErrorCurve(graded, [0.9, 0.5, 0.99]);

    assert.deepEqual(curve, [
      { threshold: 0.5, automated: 3, coverage: 0.75, error_rate: 1 / 3 },
      { threshold: 0.9, automated: 2, coverage: 0.5, error_rate: 0.5 },
      { threshold: 0.99, automated: 0, coverage: 0, error_rate: 0 },
    ]);
  });
});

describe("forecastMetrics", () => {
  it("reports the four metrics of one set together", () => {
    const forecasts: Forecast[] = [{ labels: ["a", "b"], probabilities: [0.8, 0.2], expected: "a" }];

    const metrics = forecastMetrics(forecasts);

    assert.equal(metrics.n, 1);
    close(metrics.accuracy, 1);
    close(metrics.brier, 0.08);
    close(metrics.nll, -Math.log(0.8));
    close(metrics.ece, 0.2);
  });
});
