import type { GradedDecision } from "../metrics/types.js";

/** Options of {@link findThreshold}. */
export interface ThresholdOptions {
  /** Highest acceptable error rate among automated decisions. Default 0.05. */
  errorBudget?: number;
  /**
   * z of the one-sided Wilson upper bound the error rate must keep within the budget. Default
   * 1.645 (95 %): the threshold then holds on new data with that confidence rather than only on
   * the data it was chosen on. 0: the plain observed error rate.
   */
  z?: number;
  /** Decimals of the threshold (it is written into a policy file). Default 4. */
  decimals?: number;
}

/** What {@link findThreshold} returns. */
export interface ThresholdChoice {
  /** The lowest threshold meeting the budget; null when none does. */
  threshold: number | null;
  /** Whether a threshold meets the budget. */
  met: boolean;
  error_budget: number;
  /** At the threshold (all 0 when none meets the budget): decisions automated, their share, their error rate, its upper bound. */
  automated: number;
  coverage: number;
  error_rate: number;
  error_upper_bound: number;
}

/**
 * The probability threshold that automates the most decisions (those with confidence ≥ it) while
 * their error rate stays within the budget — by its Wilson upper bound, so that it also holds on
 * data not seen here. Candidates are the decisions' confidences rounded down to `decimals`; the
 * lowest candidate that qualifies wins (the error rate need not fall monotonically with the
 * threshold, so every candidate is checked).
 */
export function findThreshold(
  decisions: readonly GradedDecision[],
  options: ThresholdOptions = {},
): ThresholdChoice {
  const budget = options.errorBudget ?? 0.05;
  const z = options.z ?? 1.645;
  const scale = 10 ** (options.decimals ?? 4);
  const sorted = [...decisions].sort((a, b) => a.confidence - b.confidence);
  // errorsFrom[i]: wrong decisions among sorted[i..].
  const errorsFrom = new Array<number>(sorted.length + 1).fill(0);
  for (let i = sorted.length - 1; i >= 0; i -= 1) {
    errorsFrom[i] = (errorsFrom[i + 1] ?? 0) + (sorted[i]?.correct ? 0 : 1);
  }
  const candidates = [...new Set(sorted.map((d) => Math.floor(d.confidence * scale) / scale))].sort(
    (a, b) => a - b,
  );
  for (const threshold of candidates) {
    const first = firstAtLeast(sorted, threshold);
    const automated = sorted.length - first;
    if (automated === 0) continue;
    const errors = errorsFrom[first] ?? 0;
    const bound = wilsonUpperBound(errors, automated, z);
    if (bound <= budget) {
      return {
        threshold,
        met: true,
        error_budget: budget,
        automated,
        coverage: automated / sorted.length,
        error_rate: errors / automated,
        error_upper_bound: bound,
      };
    }
  }
  return {
    threshold: null,
    met: false,
    error_budget: budget,
    automated: 0,
    coverage: 0,
    error_rate: 0,
    error_upper_bound: 0,
  };
}

/** Index of the first decision (sorted by confidence) whose confidence is ≥ threshold. */
function firstAtLeast(sorted: readonly GradedDecision[], threshold: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle]?.confidence ?? 0) >= threshold) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * One-sided Wilson score upper bound of a rate with `k` events in `n` trials. Hand-written: a
 * closed form of a few terms, which no dependency here provides.
 */
export function wilsonUpperBound(k: number, n: number, z: number): number {
  if (n === 0) return 1;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.min(1, (centre + spread) / (1 + z2 / n));
}
