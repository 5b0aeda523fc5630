import { NLL_PROBABILITY_FLOOR } from "../metrics/negativeLogLikelihood.js";

/**
 * Natural logs of a distribution, floored at {@link NLL_PROBABILITY_FLOOR}: a label the model gave
 * probability 0 but that turned out true would otherwise make the likelihood 0 at every
 * temperature, and the fit meaningless.
 */
export function logProbabilities(probabilities: readonly number[]): number[] {
  return probabilities.map((p) => Math.log(Math.max(p, NLL_PROBABILITY_FLOOR)));
}
