/** A two-sided interval of a proportion. */
export interface ProportionInterval {
  lower: number;
  upper: number;
}

/** z of a two-sided 95 % interval: the 0.975 quantile of the standard normal. */
export const Z_95_TWO_SIDED = 1.959964;

/**
 * Wilson's score interval of a proportion (Wilson 1927): the proportions p whose score test
 * |p̂ − p| / √(p(1 − p)/n) ≤ z accepts, in closed form
 * (p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n). Unlike the normal approximation it stays
 * inside [0, 1] and keeps its coverage near 0 and 1, where the accuracy of automated decisions lives.
 *
 * `successes` and `n` may be fractional: for a weighted sample pass the weighted proportion times
 * the effective sample size (see `effectiveSampleSize`).
 *
 * Hand-written: none of the project's dependencies offers it (no statistics library is installed)
 * and the closed form is these few lines; the tests check it against Newcombe's (1998) table.
 *
 * @param z default {@link Z_95_TWO_SIDED} (a two-sided 95 % interval); a one-sided 95 % bound is z = 1.645
 * @returns [0, 1] when n is 0 (nothing is known)
 * @throws RangeError when successes is not within [0, n]
 * @example wilsonScoreInterval(81, 263) → { lower: 0.2553, upper: 0.3662 } (to 4 decimals)
 */
export function wilsonScoreInterval(successes: number, n: number, z = Z_95_TWO_SIDED): ProportionInterval {
  if (!(successes >= 0 && successes <= n)) {
    throw new RangeError(`successes must lie within [0, n]; got ${successes} of ${n}`);
  }
  if (n === 0) return { lower: 0, upper: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  return { lower: Math.max(0, (centre - spread) / scale), upper: Math.min(1, (centre + spread) / scale) };
}

/**
 * The upper end of {@link wilsonScoreInterval}: a one-sided bound on a rate with `k` events in
 * `n` trials (95 % at z = 1.645). 1 when n is 0.
 */
export function wilsonUpperBound(k: number, n: number, z: number): number {
  return wilsonScoreInterval(k, n, z).upper;
}

/**
 * {@link wilsonScoreInterval} of a weighted proportion: `hits` (the weight of the successes) of a
 * sample of total weight `weight` whose squared weights sum to `squares`. The proportion is
 * hits / weight, and n is Kish's effective sample size weight² / squares (see
 * `effectiveSampleSize`), so that an audit item weighted 1/`audit_rate` counts as one observation
 * of the proportion, not as 1/`audit_rate` of them. With every weight 1 this is the plain interval.
 *
 * @returns [0, 1] for an empty sample
 */
export function weightedWilsonInterval(
  hits: number,
  weight: number,
  squares: number,
  z = Z_95_TWO_SIDED,
): ProportionInterval {
  if (weight === 0 || squares === 0) return { lower: 0, upper: 1 };
  const scale = weight / squares;
  return wilsonScoreInterval(Math.min(hits, weight) * scale, weight * scale, z);
}
