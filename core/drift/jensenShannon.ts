/**
 * The Jensen–Shannon divergence, in bits (0: the same distribution; 1: nothing in common), between
 * two sides given as counts per category (the same categories, in the same order).
 *
 * Smoothing: each side gets `smoothing` pseudo-counts per category in use (holding anything on
 * either side), spread as the two sides pooled are: p_i = (a_i + s·k·π_i) / (n_a + s·k). A side with
 * few items is pulled towards the pooled mix, so a category seen a few times on one side moves the
 * distance by what its counts support; categories empty on both sides stay out, so identical mixes
 * measured at different volumes stay at 0 (plain add-s smoothing would make the smaller side look
 * flatter, a distance from volume alone). The divergence stays finite with empty categories
 * (unlike the population stability index), smoothing or not.
 *
 * @returns NaN when both sides hold nothing, or one does and `smoothing` is 0.
 * @throws RangeError when the sides have different lengths.
 * @example jensenShannon([90, 10], [10, 90], 0) // ≈ 0.53
 */
export function jensenShannon(a: readonly number[], b: readonly number[], smoothing: number): number {
  if (a.length !== b.length)
    throw new RangeError(`both sides need the same categories (got ${a.length} and ${b.length})`);
  const total = sum(a) + sum(b);
  if (total === 0) return Number.NaN;
  const pooled = a.map((count, index) => (count + (b[index] ?? 0)) / total);
  const used = pooled.filter((share) => share > 0).length;
  const p = smoothTowards(a, pooled, smoothing * used);
  const q = smoothTowards(b, pooled, smoothing * used);
  if (p === undefined || q === undefined) return Number.NaN;
  let divergence = 0;
  for (let index = 0; index < p.length; index += 1) {
    const pi = p[index] ?? 0;
    const qi = q[index] ?? 0;
    const mi = (pi + qi) / 2;
    if (pi > 0) divergence += 0.5 * pi * Math.log2(pi / mi);
    if (qi > 0) divergence += 0.5 * qi * Math.log2(qi / mi);
  }
  // Rounding can leave a hair below 0 or above 1.
  return Math.min(1, Math.max(0, divergence));
}

/**
 * What {@link jensenShannon} gives on average when both sides are samples of one distribution:
 * (k − 1)(1/n₁ + 1/n₂) / (8 ln 2) bits for k categories holding anything (the divergence's
 * second-order expansion is a χ² with k − 1 degrees of freedom, scaled). A threshold well above it
 * fires on change, not on sampling noise.
 */
export function jensenShannonNoise(a: readonly number[], b: readonly number[]): number {
  const n1 = sum(a);
  const n2 = sum(b);
  if (n1 === 0 || n2 === 0) return Number.NaN;
  const used = a.filter((count, index) => count + (b[index] ?? 0) > 0).length;
  return (Math.max(0, used - 1) * (1 / n1 + 1 / n2)) / (8 * Math.LN2);
}

function smoothTowards(
  counts: readonly number[],
  pooled: readonly number[],
  pseudo: number,
): number[] | undefined {
  const total = sum(counts) + pseudo;
  if (!(total > 0)) return undefined;
  return counts.map((count, index) => (count + pseudo * (pooled[index] ?? 0)) / total);
}

function sum(counts: readonly number[]): number {
  return counts.reduce((total, count) => total + count, 0);
}
