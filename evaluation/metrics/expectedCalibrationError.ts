import type { GradedDecision, ReliabilityBin } from "./types.js";

/** Bins of the calibration error and the reliability diagram, as JevBench counts them. */
export const CALIBRATION_BINS = 10;

/** What {@link expectedCalibrationError} returns: the error and the bins it was computed from. */
export interface CalibrationErrorResult {
  /** Σ_b (n_b / n) · |accuracy_b − mean confidence_b| over non-empty bins; NaN for no decisions. */
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
 * add nothing.
 *
 * @param bins number of bins. Default {@link CALIBRATION_BINS} (10).
 * @example expectedCalibrationError([{ confidence: 1, correct: false }]).ece → 1
 */
export function expectedCalibrationError(
  decisions: readonly GradedDecision[],
  bins: number = CALIBRATION_BINS,
): CalibrationErrorResult {
  const counts = Array.from({ length: bins }, () => ({ n: 0, confidence: 0, correct: 0 }));
  for (const decision of decisions) {
    const confidence = Math.min(Math.max(decision.confidence, 0), 1);
    const bin = counts[Math.min(Math.floor(confidence * bins), bins - 1)];
    if (bin === undefined) continue;
    bin.n += 1;
    bin.confidence += confidence;
    bin.correct += decision.correct ? 1 : 0;
  }
  let ece = 0;
  for (const bin of counts) {
    if (bin.n > 0) ece += (bin.n / decisions.length) * Math.abs(bin.correct / bin.n - bin.confidence / bin.n);
  }
  return {
    ece: decisions.length === 0 ? Number.NaN : ece,
    n: decisions.length,
    bins: counts.map((bin, index) => ({
      lo: index / bins,
      hi: (index + 1) / bins,
      n: bin.n,
      mean_confidence: bin.n > 0 ? bin.confidence / bin.n : null,
      accuracy: bin.n > 0 ? bin.correct / bin.n : null,
    })),
  };
}
