import { predictedIndex } from "./predictedLabel.js";
import type { Forecast, GradedDecision, PredictionOptions } from "./types.js";

/**
 * Each forecast as a graded decision: the probability of its predicted label (the top-label
 * confidence), whether that label is the expected one, and the forecast's weight when it has one.
 */
export function gradeForecasts(
  forecasts: readonly Forecast[],
  options: PredictionOptions = {},
): GradedDecision[] {
  return forecasts.map((forecast) => {
    const index = predictedIndex(forecast, options.ties);
    return {
      confidence: forecast.probabilities[index] ?? 0,
      correct: forecast.labels[index] === forecast.expected,
      ...(forecast.weight === undefined ? {} : { weight: forecast.weight }),
    };
  });
}
