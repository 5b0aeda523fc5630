import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { calibrateForecast } from "../../../evaluation/calibration/calibrateForecast.js";
import { outcomeAt } from "../../../evaluation/calibration/calibratePolicy.js";
import { findThreshold } from "../../../evaluation/calibration/findThreshold.js";
import { fitTemperature } from "../../../evaluation/calibration/fitTemperature.js";
import { splitHeldOut } from "../../../evaluation/calibration/splitHeldOut.js";
import { gradeForecasts } from "../../../evaluation/metrics/gradeForecasts.js";
import { syntheticItems } from "../syntheticForecasts.js";

const d = (confidence: number, correct: boolean) => ({ confidence, correct });

describe("findThreshold", () => {
  it("takes the lowest threshold within the budget, checking every candidate (hand-computed, z = 0)", () => {
    // ≥ 0.8: 5 automated, 1 wrong (0.2); ≥ 0.7: 6, 2 wrong (0.33); ≥ 0.4: 8, 2 wrong (0.25).
    const decisions = [
      d(0.99, true),
      d(0.95, true),
      d(0.9, false),
      d(0.85, true),
      d(0.8, true),
      d(0.7, false),
      d(0.5, true),
      d(0.4, true),
    ];

    const strict = findThreshold(decisions, { errorBudget: 0.2, z: 0 });
    const loose = findThreshold(decisions, { errorBudget: 0.25, z: 0 });

    assert.deepEqual(
      [strict.threshold, strict.automated, strict.coverage, strict.error_rate],
      [0.8, 5, 5 / 8, 0.2],
    );
    assert.deepEqual([loose.threshold, loose.automated, loose.error_rate], [0.4, 8, 0.25]);
  });

  it("rounds candidates down to four decimals and evaluates the rounded threshold", () => {
    const choice = findThreshold([d(0.987654, true), d(0.5, false)], { errorBudget: 0.1, z: 0 });

    assert.equal(choice.threshold, 0.9876);
    assert.equal(choice.automated, 1);
  });

  it("reports that no threshold meets the budget when even the surest decisions are too often wrong", () => {
    const choice = findThreshold([d(0.99, false), d(0.9, true)], { errorBudget: 0.05 });

    assert.equal(choice.met, false);
    assert.equal(choice.threshold, null);
  });

  it("asks for more evidence with the Wilson bound than with the observed rate", () => {
    // 30 right answers: observed error 0, but the 95 % bound (≈ 0.083) exceeds 0.05.
    const decisions = Array.from({ length: 30 }, () => d(0.9, true));

    assert.equal(findThreshold(decisions, { errorBudget: 0.05, z: 0 }).met, true);
    assert.equal(findThreshold(decisions, { errorBudget: 0.05 }).met, false);
  });
});

describe("the error-budget threshold", () => {
  it("holds on held-out data: chosen on the fit split after calibration, it keeps the held-out error within budget", () => {
    const items = syntheticItems({
      n: 20000,
      labels: ["a", "b", "c"],
      trueTemperature: 1.8,
      seed: 3,
      scale: 6,
    });
    const { fit, heldOut } = splitHeldOut(items, (item) => item.id, { fraction: 0.5, seed: 1 });
    const temperature = fitTemperature(fit.map((item) => item.forecast)).temperature;
    const graded = (set: typeof items) =>
      gradeForecasts(
        set.map((item) => calibrateForecast(item.forecast, { temperature })),
        { ties: "first-offered" },
      );

    const choice = findThreshold(graded(fit), { errorBudget: 0.05 });
    const onHeldOut = outcomeAt(graded(heldOut), choice.threshold ?? 1);
    // Without the search: a plain 0.5 threshold on the same calibrated answers.
    const naive = outcomeAt(graded(heldOut), 0.5);

    assert.ok(choice.met && choice.threshold !== null);
    assert.ok(onHeldOut.error_rate <= 0.05, `held-out error ${onHeldOut.error_rate} at ${choice.threshold}`);
    assert.ok(onHeldOut.coverage > 0.2, `coverage ${onHeldOut.coverage}`);
    assert.ok(naive.error_rate > 0.05, `a 0.5 threshold errs ${naive.error_rate}`);
    // The expected error under the true distribution holds too (no label noise in this figure).
    const expectedError =
      heldOut
        .map((item) => ({ item, forecast: calibrateForecast(item.forecast, { temperature }) }))
        .filter(({ forecast }) => Math.max(...forecast.probabilities) >= (choice.threshold ?? 1))
        .reduce((sum, { item, forecast }) => {
          const best = forecast.probabilities.indexOf(Math.max(...forecast.probabilities));
          return sum + 1 - (item.truth[best] ?? 0);
        }, 0) / Math.max(1, onHeldOut.automated);
    assert.ok(expectedError <= 0.05, `expected held-out error ${expectedError}`);
  });
});
