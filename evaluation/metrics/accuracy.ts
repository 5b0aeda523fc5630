import { predictedLabel } from "./predictedLabel.js";
import type { Forecast, PredictionOptions } from "./types.js";
import { weightOf } from "./weightOf.js";

/**
 * Share of forecasts whose predicted label (argmax; ties to the alphabetically smallest label by
 * default, as JevBench scores) is the expected one, each counted with its weight (default 1).
 * @returns NaN for no forecasts
 */
export function accuracy(forecasts: readonly Forecast[], options: PredictionOptions = {}): number {
  if (forecasts.length === 0) return Number.NaN;
  let total = 0;
  let correct = 0;
  for (const forecast of forecasts) {
    const weight = weightOf(forecast);
    total += weight;
    if (predictedLabel(forecast, options.ties) === forecast.expected) correct += weight;
  }
  return correct / total;
}
