import type { GradedDecision } from "./types.js";
import { weightOf } from "./weightOf.js";

/** One point of a coverage/error curve. */
export interface CoveragePoint {
  /** Decisions with confidence ≥ this are automated. */
  threshold: number;
  /** How many are automated. */
  automated: number;
  /** Share automated: their weight over all decisions' weight (automated / all when every weight is 1). */
  coverage: number;
  /** Weighted share of the automated decisions that are wrong; 0 when none is automated. */
  error_rate: number;
}

/** The default thresholds of {@link coverageErrorCurve}: 0, 0.01, …, 1. */
export const CURVE_THRESHOLDS: readonly number[] = Array.from({ length: 101 }, (_, index) => index / 100);

/**
 * Selective prediction at each threshold: automating the decisions whose confidence is at or above
 * it, how many are automated (coverage) and how many of those are wrong (error rate). Shares are
 * weighted by the decisions' weights (default 1).
 *
 * @param thresholds the thresholds to evaluate, any order. Default {@link CURVE_THRESHOLDS}.
 * @returns one point per threshold, in ascending threshold order
 */
export function coverageErrorCurve(
  decisions: readonly GradedDecision[],
  thresholds: readonly number[] = CURVE_THRESHOLDS,
): CoveragePoint[] {
  const total = decisions.reduce((sum, decision) => sum + weightOf(decision), 0);
  return [...thresholds]
    .sort((a, b) => a - b)
    .map((threshold) => {
      const automated = decisions.filter((decision) => decision.confidence >= threshold);
      let weight = 0;
      let wrong = 0;
      for (const decision of automated) {
        weight += weightOf(decision);
        if (!decision.correct) wrong += weightOf(decision);
      }
      return {
        threshold,
        automated: automated.length,
        coverage: decisions.length === 0 ? 0 : weight / total,
        error_rate: automated.length === 0 ? 0 : wrong / weight,
      };
    });
}
