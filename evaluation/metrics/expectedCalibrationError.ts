import type { GradedDecision, ReliabilityBin } from "./types.js";
import { weightOf } from "./weightOf.js";

/** Bins of the calibration error and the reliability diagram, as JevBench counts them. */
export const CALIBRATION_BINS = 10;

/** What {@link expectedCalibrationError} returns: the error and the bins it was computed from. */
export interface CalibrationErrorResult {
  /**
   * Σ_b (w_b / w) · |accuracy_b − mean confidence_b| over non-empty bins, w_b the bin's total
   * weight (its count when every weight is 1); NaN for no decisions.
   */
  ece: number;
  /** Decisions counted. */
  n: number;
  /** The bins, lowest first (empty ones included). */
  bins: ReliabilityBin[];
}

/**
 * Top-label expected calibration error with equal-width bins, as JevBench's `ece_top_label`:
 * each decision's confidence (clamped to [0, 1]) falls in bin ⌊confidence · bins⌋ (1 in the last
 * bin); a bin's confidence is the mean of its decisions' confidences, not its midpoint; empty bins
 * add nothing. Each decision counts with its weight (default 1).
 *
 * @param bins number of bins. Default {@link CALIBRATION_BINS} (10).
 * @example expectedCalibrationError([{ confidence: 1, correct: false }]).ece → 1
 */
export function expectedCalibrationError(
  decisions: readonly GradedDecision[],
  bins: number = CALIBRATION_BINS,
): CalibrationErrorResult {
  const counts = Array.from({ length: bins }, () => ({ n: 0, weight: 0, confidence: 0, correct: 0 }));
  let total = 0;
  for (const decision of decisions) {
    const confidence = Math.min(Math.max(decision.confidence, 0), 1);
    const bin = counts[Math.min(Math.floor(confidence * bins), bins - 1)];
    if (bin === undefined) continue;
    const weight = weightOf(decision);
    bin.n += 1;
    bin.weight += weight;
    bin.confidence += weight * confidence;
    bin.correct += decision.correct ? weight : 0;
    total += weight;
  }
  let ece = 0;
  for (const bin of counts) {
    if (bin.n > 0)
      ece += (bin.weight / total) * Math.abs(bin.correct / bin.weight - bin.confidence / bin.weight);
  }
  return {
    ece: decisions.length === 0 ? Number.NaN : ece,
    n: decisions.length,
    bins: counts.map((bin, index) => ({
      lo: index / bins,
      hi: (index + 1) / bins,
      n: bin.n,
      weight: bin.weight,
      mean_confidence: bin.n > 0 ? bin.confidence / bin.weight : null,
      accuracy: bin.n > 0 ? bin.correct / bin.weight : null,
    })),
  };
}
