/** Smallest probability a slot is given before its logarithm is taken (float32 underflow guard). */
export const PROBABILITY_FLOOR = 1e-45;

/** Option scores and probabilities read from a next-token distribution. */
export interface SlotDistribution {
  /** Softmax of `scores / temperature`, in slot order; sums to 1. */
  probabilities: number[];
  /** Log-probability of each slot token (floored at ln(1e-45) ≈ −103.6 where float32 underflowed). */
  scores: number[];
  /** Total probability of the slot tokens in the distribution that was read. */
  slotMass: number;
}

/**
 * Reads the slot tokens out of a next-token distribution.
 *
 * @param distribution token → probability, as node-llama-cpp returns it.
 * @param slotTokens the token of each answer slot, in option order.
 * @param renormalise when true, scores are log-probabilities relative to the slot set (the
 *   distribution covered only biased slot tokens); when false, full-vocabulary log-probabilities.
 * @returns undefined when a slot token is absent from the distribution (it was cut by top-k).
 */
export function readSlots(
  distribution: ReadonlyMap<number, number>,
  slotTokens: readonly number[],
  renormalise: boolean,
  temperature = 1,
): SlotDistribution | undefined {
  const raw: number[] = [];
  for (const token of slotTokens) {
    const probability = distribution.get(token);
    if (probability === undefined) return undefined;
    raw.push(probability);
  }
  const slotMass = raw.reduce((sum, value) => sum + value, 0);
  const divisor = renormalise && slotMass > 0 ? slotMass : 1;
  const scores = raw.map((value) => Math.log(Math.max(value / divisor, PROBABILITY_FLOOR)));
  return { probabilities: softmax(scores, temperature), scores, slotMass };
}

/**
 * Numerically stable softmax of `scores / temperature` in double precision.
 * @throws RangeError for a temperature that is not a positive finite number.
 */
export function softmax(scores: readonly number[], temperature = 1): number[] {
  if (!(temperature > 0) || !Number.isFinite(temperature)) {
    throw new RangeError(`temperature must be a positive finite number, got ${temperature}`);
  }
  const scaled = scores.map((score) => score / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((value) => Math.exp(value - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}
