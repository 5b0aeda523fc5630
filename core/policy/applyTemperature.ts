/**
 * Applies a calibrated temperature to a probability distribution: p_i^(1/T), renormalised.
 *
 * That equals softmax(logit_i / T): the engine's log-probabilities differ from the logits by one
 * constant per question, which the renormalisation removes. Computed in log space so tiny
 * probabilities and large 1/T neither underflow to an all-zero vector nor overflow. A zero stays
 * zero. T = 1 (or absent) returns the input values unchanged.
 *
 * @param probabilities the distribution, in option order (finite, ≥ 0, at least one > 0)
 * @param temperature T > 0
 * @example applyTemperature([0.8, 0.2], 2) → [0.6667, 0.3333] (√0.8 : √0.2 = 2 : 1)
 */
export function applyTemperature(probabilities: readonly number[], temperature = 1): number[] {
  if (temperature === 1) return [...probabilities];
  const scaled = probabilities.map((p) => (p > 0 ? Math.log(p) / temperature : Number.NEGATIVE_INFINITY));
  const top = Math.max(...scaled);
  const weights = scaled.map((logit) => (logit === Number.NEGATIVE_INFINITY ? 0 : Math.exp(logit - top)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}
