import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyTemperature } from "../../../core/policy/applyTemperature.js";
import { calibrateForecast } from "../../../evaluation/calibration/calibrateForecast.js";
import { fitContextualCalibration } from "../../../evaluation/calibration/fitContextualCalibration.js";
import { fitTemperature } from "../../../evaluation/calibration/fitTemperature.js";
import { expectedCalibrationError } from "../../../evaluation/metrics/expectedCalibrationError.js";
import { gradeForecasts } from "../../../evaluation/metrics/gradeForecasts.js";
import { negativeLogLikelihood } from "../../../evaluation/metrics/negativeLogLikelihood.js";
import type { Forecast } from "../../../evaluation/metrics/types.js";
import { normal, sample, seededRandom, softmax, syntheticItems } from "../syntheticForecasts.js";

const LABELS = ["a", "b", "c", "d"];

const ece = (forecasts: readonly Forecast[]): number =>
  expectedCalibrationError(gradeForecasts(forecasts)).ece;

describe("fitTemperature", () => {
  for (const trueTemperature of [2, 0.5]) {
    it(`recovers a known temperature (T = ${trueTemperature}) within 10 %, and the calibration error falls`, () => {
      // Labels drawn from softmax(logit / T), the fitter given softmax(logit).
      const forecasts = syntheticItems({ n: 4000, labels: LABELS, trueTemperature, seed: 7 }).map(
        (item) => item.forecast,
      );

      const fit = fitTemperature(forecasts);
      const calibrated = forecasts.map((forecast) =>
        calibrateForecast(forecast, { temperature: fit.temperature }),
      );

      assert.ok(
        Math.abs(fit.temperature - trueTemperature) <= 0.1 * trueTemperature,
        `fitted ${fit.temperature}, true ${trueTemperature}`,
      );
      assert.ok(fit.nll_after < fit.nll_before);
      assert.ok(Math.abs(fit.nll_after - negativeLogLikelihood(calibrated)) < 1e-9);
      assert.ok(ece(calibrated) < ece(forecasts), `ECE ${ece(forecasts)} → ${ece(calibrated)}`);
      assert.ok(!fit.at_bound);
    });
  }

  it("leaves a calibrated model's temperature near 1", () => {
    const forecasts = syntheticItems({ n: 4000, labels: LABELS, trueTemperature: 1, seed: 11 }).map(
      (i) => i.forecast,
    );

    const fit = fitTemperature(forecasts);

    assert.ok(Math.abs(fit.temperature - 1) <= 0.1, `fitted ${fit.temperature}`);
  });

  it("stops at the lowest temperature allowed when every answer is right", () => {
    const forecasts: Forecast[] = Array.from({ length: 50 }, () => ({
      labels: ["a", "b"],
      probabilities: [0.7, 0.3],
      expected: "a",
    }));

    const fit = fitTemperature(forecasts, { minTemperature: 0.1 });

    assert.equal(fit.temperature, 0.1);
    assert.ok(fit.at_bound);
  });

  it("returns T = 1 without labelled forecasts", () => {
    assert.equal(fitTemperature([]).temperature, 1);
  });
});

describe("calibrateForecast", () => {
  it("applies the temperature exactly as a policy does", () => {
    const forecast: Forecast = { labels: ["a", "b", "c"], probabilities: [0.7, 0.2, 0.1], expected: "a" };

    assert.deepEqual(
      calibrateForecast(forecast, { temperature: 1.7 }).probabilities,
      applyTemperature([0.7, 0.2, 0.1], 1.7),
    );
  });

  it("adds per-label biases to log p / T (hand-computed)", () => {
    const forecast: Forecast = { labels: ["a", "b"], probabilities: [0.5, 0.5], expected: "a" };

    const { probabilities } = calibrateForecast(forecast, { temperature: 1, bias: [Math.log(3), 0] });

    assert.ok(Math.abs((probabilities[0] ?? 0) - 0.75) < 1e-12);
    assert.ok(Math.abs((probabilities[1] ?? 0) - 0.25) < 1e-12);
  });
});

describe("fitContextualCalibration", () => {
  it("recovers a temperature and per-label biases the model's distribution lacks", () => {
    const random = seededRandom(5);
    const bias = [0.8, -0.2, -0.6];
    const forecasts: Forecast[] = Array.from({ length: 5000 }, () => {
      const logits = [0, 0, 0].map(() => 2.5 * normal(random));
      const truth = softmax(logits.map((z, k) => z / 1.5 + (bias[k] ?? 0)));
      return {
        labels: ["x", "y", "z"],
        probabilities: softmax(logits),
        expected: ["x", "y", "z"][sample(random, truth)] ?? "x",
      };
    });

    const fit = fitContextualCalibration(forecasts);
    const temperatureOnly = fitTemperature(forecasts);

    assert.ok(Math.abs(fit.temperature - 1.5) <= 0.15, `fitted T ${fit.temperature}`);
    const centred = bias.map((b) => b - bias.reduce((s, v) => s + v, 0) / bias.length);
    for (const [k, b] of fit.bias.entries()) {
      assert.ok(Math.abs(b - (centred[k] ?? 0)) < 0.2, `bias ${k}: ${b} vs ${centred[k]}`);
    }
    assert.ok(fit.nll_after < temperatureOnly.nll_after);
  });

  it("refuses forecasts over different labels", () => {
    assert.throws(
      () =>
        fitContextualCalibration([
          { labels: ["a", "b"], probabilities: [0.5, 0.5], expected: "a" },
          { labels: ["b", "a"], probabilities: [0.5, 0.5], expected: "a" },
        ]),
      RangeError,
    );
  });
});
