import { predictedLabel } from "./predictedLabel.js";
import type { Forecast, PredictionOptions } from "./types.js";

/**
 * Share of forecasts whose predicted label (argmax; ties to the alphabetically smallest label by
 * default, as JevBench scores) is the expected one.
 * @returns NaN for no forecasts
 */
export function accuracy(forecasts: readonly Forecast[], options: PredictionOptions = {}): number {
  if (forecasts.length === 0) return Number.NaN;
  const correct = forecasts.filter(
    (forecast) => predictedLabel(forecast, options.ties) === forecast.expected,
  );
  return correct.length / forecasts.length;
}
