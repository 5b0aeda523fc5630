import { countPromptVersions } from "../layoutChoices.js";
import { brierScore } from "../metrics/brierScore.js";
import { type CoveragePoint, coverageErrorCurve } from "../metrics/coverageErrorCurve.js";
import {
  type CalibrationErrorResult,
  expectedCalibrationError,
} from "../metrics/expectedCalibrationError.js";
import { gradeForecasts } from "../metrics/gradeForecasts.js";
import { quantile } from "../metrics/statistics.js";
import type { Forecast } from "../metrics/types.js";
import type { JevBenchRecord } from "./types.js";

/** JevBench's aggregate over a set of cases. */
export interface JevBenchMetrics {
  /** Cases planned and cases with a record. */
  n_planned: number;
  n_attempted: number;
  n_valid: number;
  n_correct: number;
  /** n_correct / n_attempted, as JevBench: an invalid answer counts as wrong. */
  accuracy: number;
  /** Mean multi-class Brier score over the valid answers. */
  brier_mean: number;
  /** 10-bin top-label ECE over the valid answers, with its bins. */
  ece: CalibrationErrorResult;
  /** Score cases: mean |Σ i·p_i − expected level| over the valid answers; null without score cases. */
  ordinal_mae: number | null;
}

/** Paraphrase consistency as JevBench counts it, over the groups of exactly two cases. */
export interface ParaphraseConsistency {
  /** Groups with exactly two cases among those planned. */
  pairs: number;
  /** Pairs whose two answers are both valid. */
  both_valid: number;
  /** Of those, pairs whose two predicted labels agree. */
  agree: number;
  /** agree / both_valid; null without such pairs. */
  agreement: number | null;
  /** Pairs with both answers correct / pairs; null without pairs. */
  both_correct_rate_all_pairs: number | null;
}

/** The JevBench summary of a run. */
export interface JevBenchSummary extends JevBenchMetrics {
  /** Mean of the per-family accuracies. */
  macro_accuracy: number;
  per_family: Record<string, JevBenchMetrics>;
  per_file: Record<string, JevBenchMetrics>;
  paraphrase_consistency: ParaphraseConsistency;
  /** Serial wall time per case (ms), over every attempted case. */
  latency: { n: number; p50_ms: number; p95_ms: number; mean_ms: number };
  /** Coverage and error of automating the valid answers at or above each confidence threshold. */
  coverage_curve: CoveragePoint[];
  /**
   * How many answers each `prompt_version` scored, as the engine returned it (the layout asked
   * for, or the one `auto` chose).
   */
  prompt_versions: Record<string, number>;
  /** Mean prompt tokens the engine evaluated per answered case; null when none answered. */
  input_tokens_mean: number | null;
}

/** One planned case, as the summary needs it. */
export interface PlannedCase {
  id: string;
  file: string;
  family: string;
  group: string | null;
  labels: readonly string[];
  expected: string | number;
  question: { type: string };
}

/**
 * Aggregates a run as JevBench's `summarize` does: overall, per family and per file — valid
 * answers, accuracy (invalid = wrong), mean Brier, 10-bin ECE (both over the valid answers),
 * ordinal MAE of score cases; the macro accuracy over families; paraphrase consistency over the
 * two-case groups; p50/p95 latency (percentiles by linear interpolation, as JevBench's); the
 * prompt versions the engine answered with and the mean prompt tokens per case.
 */
export function summarizeJevBench(
  cases: readonly PlannedCase[],
  records: readonly JevBenchRecord[],
): JevBenchSummary {
  const byId = new Map(records.map((record) => [record.id, record]));
  const groupBy = (key: (c: PlannedCase) => string): Record<string, JevBenchMetrics> => {
    const groups = new Map<string, PlannedCase[]>();
    for (const testCase of cases) groups.set(key(testCase), [...(groups.get(key(testCase)) ?? []), testCase]);
    return Object.fromEntries(
      [...groups.keys()].sort().map((name) => [name, metricsOf(groups.get(name) ?? [], byId)]),
    );
  };
  const perFamily = groupBy((c) => c.family);
  const familyAccuracies = Object.values(perFamily).map((metrics) => metrics.accuracy);
  const latencies = records.map((record) => record.latency_ms);
  const inputTokens = records.flatMap((record) =>
    record.input_tokens === undefined ? [] : [record.input_tokens],
  );
  return {
    ...metricsOf(cases, byId),
    macro_accuracy: familyAccuracies.reduce((a, b) => a + b, 0) / Math.max(1, familyAccuracies.length),
    per_family: perFamily,
    per_file: groupBy((c) => c.file),
    paraphrase_consistency: paraphraseConsistency(cases, byId),
    latency: {
      n: latencies.length,
      p50_ms: quantile(latencies, 0.5),
      p95_ms: quantile(latencies, 0.95),
      mean_ms: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    },
    coverage_curve: coverageErrorCurve(gradeForecasts(validForecasts(cases, byId))),
    prompt_versions: countPromptVersions(records.map((record) => record.prompt_version)),
    input_tokens_mean:
      inputTokens.length === 0 ? null : inputTokens.reduce((a, b) => a + b, 0) / inputTokens.length,
  };
}

function validForecasts(
  cases: readonly PlannedCase[],
  byId: ReadonlyMap<string, JevBenchRecord>,
): Forecast[] {
  return cases.flatMap((testCase) => {
    const record = byId.get(testCase.id);
    if (record?.probabilities === undefined || !record.valid) return [];
    const labels = [...testCase.labels];
    return [
      {
        labels,
        probabilities: labels.map((label) => record.probabilities?.[label] ?? 0),
        expected: String(testCase.expected),
      },
    ];
  });
}

function metricsOf(
  cases: readonly PlannedCase[],
  byId: ReadonlyMap<string, JevBenchRecord>,
): JevBenchMetrics {
  const records = cases.flatMap((testCase) => {
    const record = byId.get(testCase.id);
    return record === undefined ? [] : [record];
  });
  const forecasts = validForecasts(cases, byId);
  const ordinal = cases.flatMap((testCase) => {
    const record = byId.get(testCase.id);
    if (testCase.question.type !== "score" || record?.probabilities === undefined) return [];
    const mean = Object.entries(record.probabilities).reduce((sum, [level, p]) => sum + Number(level) * p, 0);
    return [Math.abs(mean - Number(testCase.expected))];
  });
  const correct = records.filter((record) => record.correct).length;
  return {
    n_planned: cases.length,
    n_attempted: records.length,
    n_valid: records.filter((record) => record.valid).length,
    n_correct: correct,
    accuracy: records.length === 0 ? Number.NaN : correct / records.length,
    brier_mean: brierScore(forecasts),
    ece: expectedCalibrationError(gradeForecasts(forecasts)),
    ordinal_mae: ordinal.length === 0 ? null : ordinal.reduce((a, b) => a + b, 0) / ordinal.length,
  };
}

/** JevBench's `agreement`: over groups of exactly two planned cases, how often both answers agree. */
export function paraphraseConsistency(
  cases: readonly PlannedCase[],
  byId: ReadonlyMap<string, JevBenchRecord>,
): ParaphraseConsistency {
  const groups = new Map<string, PlannedCase[]>();
  for (const testCase of cases) {
    if (testCase.group === null || testCase.group === "") continue;
    groups.set(testCase.group, [...(groups.get(testCase.group) ?? []), testCase]);
  }
  const pairs = [...groups.values()].filter((group) => group.length === 2);
  let bothValid = 0;
  let agree = 0;
  let bothCorrect = 0;
  for (const [first, second] of pairs) {
    const a = first === undefined ? undefined : byId.get(first.id);
    const b = second === undefined ? undefined : byId.get(second.id);
    if (a?.valid !== true || b?.valid !== true) continue;
    bothValid += 1;
    if (a.predicted === b.predicted) agree += 1;
    if (a.correct && b.correct) bothCorrect += 1;
  }
  return {
    pairs: pairs.length,
    both_valid: bothValid,
    agree,
    agreement: bothValid === 0 ? null : agree / bothValid,
    both_correct_rate_all_pairs: pairs.length === 0 ? null : bothCorrect / pairs.length,
  };
}
