/**
 * Kish's effective sample size of a weighted sample, (Σw)² / Σw²: how many equally weighted
 * observations carry as much information as these. It equals the count when every weight is the
 * same, and is smaller the more the weights differ. 0 for no weights.
 *
 * @example effectiveSampleSize([1, 1, 1, 1]) → 4; effectiveSampleSize([1, 1, 10]) → 144 / 102 ≈ 1.41
 */
export function effectiveSampleSize(weights: readonly number[]): number {
  let total = 0;
  let squares = 0;
  for (const weight of weights) {
    total += weight;
    squares += weight * weight;
  }
  return squares === 0 ? 0 : (total * total) / squares;
}
