import type { Forecast } from "./types.js";
import { weightOf } from "./weightOf.js";

/**
 * Multi-class Brier score as JevBench defines it: per forecast Σ_k (p_k − 1[k = expected])² over
 * the label set (0 for a certain correct answer, 2 for a certain wrong one), averaged with the
 * forecasts' weights (default 1). For two labels this is twice the binary Brier score (p_yes − y)².
 * @returns NaN for no forecasts
 * @example brierScore([{ labels: ["a", "b"], probabilities: [0.8, 0.2], expected: "a" }]) → 0.08
 */
export function brierScore(forecasts: readonly Forecast[]): number {
  if (forecasts.length === 0) return Number.NaN;
  let total = 0;
  let weights = 0;
  for (const forecast of forecasts) {
    const weight = weightOf(forecast);
    let score = 0;
    for (const [index, probability] of forecast.probabilities.entries()) {
      const target = forecast.labels[index] === forecast.expected ? 1 : 0;
      score += (probability - target) ** 2;
    }
    total += weight * score;
    weights += weight;
  }
  return total / weights;
}
