import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findThreshold } from "../../../evaluation/calibration/findThreshold.js";
import { fitTemperature } from "../../../evaluation/calibration/fitTemperature.js";
import { coverageErrorCurve } from "../../../evaluation/metrics/coverageErrorCurve.js";
import { forecastMetrics } from "../../../evaluation/metrics/forecastMetrics.js";
import { gradeForecasts } from "../../../evaluation/metrics/gradeForecasts.js";
import type { Forecast } from "../../../evaluation/metrics/types.js";
import { weightOf } from "../../../evaluation/metrics/weightOf.js";
import { syntheticItems } from "../syntheticForecasts.js";

const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} vs ${expected}`);

/** Some forecasts, every third weighted 3, and the same set with those repeated three times. */
function weightedAndRepeated(): { weighted: Forecast[]; repeated: Forecast[] } {
  const forecasts = syntheticItems({ n: 300, labels: ["a", "b", "c"], trueTemperature: 2, seed: 9 }).map(
    (item) => item.forecast,
  );
  const weighted = forecasts.map((forecast, index) =>
    index % 3 === 0 ? { ...forecast, weight: 3 } : forecast,
  );
  const repeated = forecasts.flatMap((forecast, index) =>
    index % 3 === 0 ? [forecast, forecast, forecast] : [forecast],
  );
  return { weighted, repeated };
}

describe("weighted metrics", () => {
  it("count a forecast of weight 3 as three of it: accuracy, Brier, NLL, ECE and the reliability bins", () => {
    const { weighted, repeated } = weightedAndRepeated();

    const a = forecastMetrics(weighted, { ties: "first-offered" });
    const b = forecastMetrics(repeated, { ties: "first-offered" });

    close(a.accuracy, b.accuracy, "accuracy");
    close(a.brier, b.brier, "brier");
    close(a.nll, b.nll, "nll");
    close(a.ece, b.ece, "ece");
    for (const [index, bin] of a.bins.entries()) {
      const other = b.bins[index];
      close(bin.weight, other?.n ?? Number.NaN, `bin ${index} weight`);
      close(bin.accuracy ?? 0, other?.accuracy ?? 0, `bin ${index} accuracy`);
      close(bin.mean_confidence ?? 0, other?.mean_confidence ?? 0, `bin ${index} confidence`);
    }
    assert.equal(a.n, weighted.length, "n stays the count of forecasts");
  });

  it("fit the temperature a repeated sample would give", () => {
    const { weighted, repeated } = weightedAndRepeated();

    close(fitTemperature(weighted).temperature, fitTemperature(repeated).temperature, "temperature");
  });

  it("give coverage and error rates of the repeated sample", () => {
    const { weighted, repeated } = weightedAndRepeated();

    const a = coverageErrorCurve(gradeForecasts(weighted));
    const b = coverageErrorCurve(gradeForecasts(repeated));

    for (const [index, point] of a.entries()) {
      close(point.coverage, b[index]?.coverage ?? Number.NaN, `coverage at ${point.threshold}`);
      close(point.error_rate, b[index]?.error_rate ?? Number.NaN, `error at ${point.threshold}`);
    }
  });

  it("find the threshold by the weighted error rate, its bound at the effective sample size (z = 0: the rate)", () => {
    // ≥ 0.9: one right of weight 1, one wrong of weight 9 → error 0.9 there; ≥ 0.5 adds 10 right.
    const decisions = [
      { confidence: 0.95, correct: true },
      { confidence: 0.9, correct: false, weight: 9 },
      ...Array.from({ length: 10 }, () => ({ confidence: 0.5, correct: true })),
    ];

    const loose = findThreshold(decisions, { errorBudget: 0.46, z: 0 });
    const strict = findThreshold(decisions, { errorBudget: 0.44, z: 0 });

    assert.equal(loose.threshold, 0.5);
    close(loose.error_rate, 9 / 20, "error rate");
    close(loose.coverage, 1, "coverage");
    assert.equal(strict.threshold, 0.95, "unweighted, 1 wrong of 12 would have kept 0.5");
    close(strict.coverage, 1 / 20, "coverage by weight");
  });

  it("refuse a weight that is not a positive number", () => {
    assert.throws(() => weightOf({ weight: 0 }), RangeError);
    assert.throws(() => weightOf({ weight: Number.NaN }), RangeError);
    assert.equal(weightOf({}), 1);
  });
});
