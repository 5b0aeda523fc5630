/** Shapes shared by the metrics. */

/** One probabilistic answer and the label that was right. */
export interface Forecast {
  /** The labels offered, in the order they were offered. */
  labels: readonly string[];
  /** Probability of each label, in `labels` order (finite, ≥ 0, summing to 1). */
  probabilities: readonly number[];
  /** The correct label (one of `labels`; a label outside them counts as probability 0). */
  expected: string;
  /**
   * How many decisions this one stands for: the inverse of the probability that its label was
   * collected (1 for a fallback a person reviewed anyway, 1/`audit_rate` for an audit item).
   * Every metric is a weighted mean. Default 1.
   */
  weight?: number;
}

/**
 * How the predicted label is chosen when several labels share the highest probability:
 * `alphabetical` — the alphabetically smallest label, as JevBench scores; `first-offered` — the one
 * offered first, as a policy decides (core/policy `applyPolicy`).
 */
export type TieBreak = "alphabetical" | "first-offered";

/** Options shared by the metrics that need a predicted label. */
export interface PredictionOptions {
  /** Default `alphabetical` (JevBench). */
  ties?: TieBreak;
}

/** A decision reduced to what selective prediction needs: how sure it was, and whether it was right. */
export interface GradedDecision {
  /** Probability of the predicted label (top-label confidence). */
  confidence: number;
  /** Whether the predicted label was the correct one. */
  correct: boolean;
  /** How many decisions it stands for (see {@link Forecast.weight}). Default 1. */
  weight?: number;
}

/** One bin of a reliability diagram (10 equal-width bins on the top-label confidence). */
export interface ReliabilityBin {
  /** Lower edge (inclusive). */
  lo: number;
  /** Upper edge (exclusive; the last bin includes 1). */
  hi: number;
  /** Decisions in the bin. */
  n: number;
  /** Their total weight (equal to `n` when every weight is 1). */
  weight: number;
  /** Weighted mean top-label confidence of the bin's decisions; null when the bin is empty. */
  mean_confidence: number | null;
  /** Weighted share of the bin's decisions that were correct; null when the bin is empty. */
  accuracy: number | null;
}
