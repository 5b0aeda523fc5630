import type { Forecast } from "./types.js";
import { weightOf } from "./weightOf.js";

/** Probabilities below this count as this much, so one impossible-but-true answer stays finite. */
export const NLL_PROBABILITY_FLOOR = 1e-12;

/**
 * Mean negative log-likelihood (natural log) of the expected labels: −ln p(expected), with p
 * floored at {@link NLL_PROBABILITY_FLOOR} (≈ 27.6 nats at most per forecast), averaged with the
 * forecasts' weights (default 1).
 * @returns NaN for no forecasts
 * @example negativeLogLikelihood([{ labels: ["a", "b"], probabilities: [0.5, 0.5], expected: "a" }]) → ln 2
 */
export function negativeLogLikelihood(forecasts: readonly Forecast[]): number {
  if (forecasts.length === 0) return Number.NaN;
  let total = 0;
  let weights = 0;
  for (const forecast of forecasts) {
    const weight = weightOf(forecast);
    const probability = forecast.probabilities[forecast.labels.indexOf(forecast.expected)] ?? 0;
    total -= weight * Math.log(Math.max(probability, NLL_PROBABILITY_FLOOR));
    weights += weight;
  }
  return total / weights;
}
