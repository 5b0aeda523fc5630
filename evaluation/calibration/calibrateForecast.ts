import { applyTemperature } from "../../core/policy/applyTemperature.js";
import type { Forecast } from "../metrics/types.js";
import { logProbabilities } from "./logProbabilities.js";

/** A calibration map: a temperature, and optionally one bias per label (contextual calibration). */
export interface CalibrationMap {
  /** T > 0. */
  temperature: number;
  /** Per label, in the forecast's label order; absent: none. */
  bias?: readonly number[];
}

/**
 * A forecast with a calibration map applied: softmax(log p / T + b). Without biases this is
 * exactly what a policy applies (`applyTemperature` of core/policy: p^(1/T), renormalised),
 * so the metrics reported after calibration are those the policy will produce.
 */
export function calibrateForecast(forecast: Forecast, map: CalibrationMap): Forecast {
  if (map.bias === undefined) {
    return { ...forecast, probabilities: applyTemperature(forecast.probabilities, map.temperature) };
  }
  const z = logProbabilities(forecast.probabilities).map(
    (l, k) => l / map.temperature + (map.bias?.[k] ?? 0),
  );
  const top = Math.max(...z);
  const weights = z.map((value) => Math.exp(value - top));
  const sum = weights.reduce((acc, w) => acc + w, 0);
  return { ...forecast, probabilities: weights.map((w) => w / sum) };
}
