import type { GradedDecision } from "../metrics/types.js";
import { weightOf } from "../metrics/weightOf.js";
import { weightedWilsonInterval } from "../metrics/wilsonScoreInterval.js";

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
  /**
   * At the threshold (all 0 when none meets the budget): decisions automated, their share, their
   * error rate, its upper bound. Share and rate are weighted (see `GradedDecision.weight`), and
   * the bound's n is the effective sample size of the automated decisions.
   */
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
 *
 * Decisions count with their weights (default 1): an audit item weighted 1/`audit_rate` stands
 * for the decided items it was drawn from, so the error above the policy's current threshold is
 * not judged on the few decided items that happen to be labelled as if they were all of them.
 */
export function findThreshold(
  decisions: readonly GradedDecision[],
  options: ThresholdOptions = {},
): ThresholdChoice {
  const budget = options.errorBudget ?? 0.05;
  const z = options.z ?? 1.645;
  const scale = 10 ** (options.decimals ?? 4);
  const sorted = [...decisions].sort((a, b) => a.confidence - b.confidence);
  // Among sorted[i..]: the weight of the wrong decisions, the total weight, the squared weights.
  const errorsFrom = new Array<number>(sorted.length + 1).fill(0);
  const weightFrom = new Array<number>(sorted.length + 1).fill(0);
  const squaresFrom = new Array<number>(sorted.length + 1).fill(0);
  for (let i = sorted.length - 1; i >= 0; i -= 1) {
    const decision = sorted[i];
    const weight = decision === undefined ? 0 : weightOf(decision);
    errorsFrom[i] = (errorsFrom[i + 1] ?? 0) + (decision?.correct ? 0 : weight);
    weightFrom[i] = (weightFrom[i + 1] ?? 0) + weight;
    squaresFrom[i] = (squaresFrom[i + 1] ?? 0) + weight * weight;
  }
  const total = weightFrom[0] ?? 0;
  const candidates = [...new Set(sorted.map((d) => Math.floor(d.confidence * scale) / scale))].sort(
    (a, b) => a - b,
  );
  for (const threshold of candidates) {
    const first = firstAtLeast(sorted, threshold);
    const automated = sorted.length - first;
    if (automated === 0) continue;
    const errors = errorsFrom[first] ?? 0;
    const weight = weightFrom[first] ?? 0;
    const bound = weightedWilsonInterval(errors, weight, squaresFrom[first] ?? 0, z).upper;
    if (bound <= budget) {
      return {
        threshold,
        met: true,
        error_budget: budget,
        automated,
        coverage: weight / total,
        error_rate: errors / weight,
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
