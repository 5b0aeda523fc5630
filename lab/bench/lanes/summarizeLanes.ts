/** Send→outcome times of one phase's interactive items, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
}

/** What one lanes bench run measured, as {@link summarizeLanes} takes it. */
export interface LanesMeasurements {
  /** Send→outcome (ms) of each interactive item sent with nothing else in the pipeline. */
  interactiveAlone: readonly number[];
  /** Send→outcome (ms) of each interactive item sent while the bulk job drained. */
  interactiveDuring: readonly number[];
  /** Bulk lines/s of the job alone and of the job while interactive items arrived. */
  bulkAloneLinesPerS: number;
  bulkDuringLinesPerS: number;
  /** One interactive evaluation's time measured in the run (ms; the p50 of the items alone). */
  evaluationMs: number;
  /**
   * One bulk evaluation's time (ms; the p95 of the bulk job's lines alone): the evaluation an
   * interactive call that arrives during the drain may find running and wait for — the goal's
   * allowance. Bulk lines (documents) are longer than incidents, so this is the longer of the two.
   */
  runningEvaluationMs: number;
  /** Messages in both lanes' DLQs (what ended without an outcome). */
  deadLettered: number;
  /**
   * Items without an outcome that their lane's queue still held when the run stopped waiting
   * (nothing had moved for the stall time): not decided, but not lost either.
   */
  notEnded: number;
  /** Items never decided and in no queue or DLQ. */
  lost: number;
  /** Job lines counted more than once (the jobs' `duplicates`). */
  duplicated: number;
}

/** One goal with its measured value, its bound and whether it was met. */
export interface LanesGoal {
  name: string;
  measured: number;
  bound: number;
  met: boolean;
}

/** Ratios and goals of a lanes bench run. */
export interface LanesSummary {
  interactive: {
    alone: LatencySummary;
    during: LatencySummary;
    ratio: { p50: number; p95: number; max: number };
  };
  bulk: { alone_lines_per_s: number; during_lines_per_s: number; ratio: number };
  goals: LanesGoal[];
  goals_met: boolean;
}

/** Interactive p95 during ≤ this × alone (plus the one bulk evaluation it may wait for). */
export const INTERACTIVE_P95_FACTOR = 1.5;
/** Bulk lines/s during ≥ this × alone. */
export const BULK_GOODPUT_SHARE = 0.9;

/**
 * The lanes bench's ratios (during ÷ alone) and its goals: interactive p95 during ≤
 * {@link INTERACTIVE_P95_FACTOR} × alone + one evaluation's time — the bulk evaluation running
 * when the item arrives, which it waits for at most (`runningEvaluationMs`); bulk goodput during ≥
 * {@link BULK_GOODPUT_SHARE} × alone; nothing dead-lettered, lost or duplicated, and nothing left
 * not ended (a run that stopped waiting has not measured every item). A phase with no
 * interactive item misses the interactive goal (NaN ratios), rather than passing it unmeasured.
 */
export function summarizeLanes(measured: LanesMeasurements): LanesSummary {
  const alone = summarizeLatency(measured.interactiveAlone);
  const during = summarizeLatency(measured.interactiveDuring);
  const p95Bound = INTERACTIVE_P95_FACTOR * alone.p95_ms + measured.runningEvaluationMs;
  const bulkRatio = ratio(measured.bulkDuringLinesPerS, measured.bulkAloneLinesPerS);
  // The goal is judged on the ratio as measured, not on its rounded figure.
  const bulkMet =
    measured.bulkAloneLinesPerS > 0 &&
    measured.bulkDuringLinesPerS >= BULK_GOODPUT_SHARE * measured.bulkAloneLinesPerS;
  const goals: LanesGoal[] = [
    {
      name: `interactive p95 during ≤ ${INTERACTIVE_P95_FACTOR}× alone + one bulk evaluation (ms)`,
      measured: during.p95_ms,
      bound: round(p95Bound),
      met: alone.count > 0 && during.count > 0 && during.p95_ms <= p95Bound,
    },
    {
      name: `bulk lines/s during ÷ alone ≥ ${BULK_GOODPUT_SHARE}`,
      measured: bulkRatio,
      bound: BULK_GOODPUT_SHARE,
      met: bulkMet,
    },
    { name: "dead-lettered", measured: measured.deadLettered, bound: 0, met: measured.deadLettered === 0 },
    { name: "not ended", measured: measured.notEnded, bound: 0, met: measured.notEnded === 0 },
    { name: "lost", measured: measured.lost, bound: 0, met: measured.lost === 0 },
    { name: "duplicated", measured: measured.duplicated, bound: 0, met: measured.duplicated === 0 },
  ];
  return {
    interactive: {
      alone,
      during,
      ratio: {
        p50: ratio(during.p50_ms, alone.p50_ms),
        p95: ratio(during.p95_ms, alone.p95_ms),
        max: ratio(during.max_ms, alone.max_ms),
      },
    },
    bulk: {
      alone_lines_per_s: measured.bulkAloneLinesPerS,
      during_lines_per_s: measured.bulkDuringLinesPerS,
      ratio: bulkRatio,
    },
    goals,
    goals_met: goals.every((goal) => goal.met),
  };
}

/** Count, p50, p95 (nearest rank) and max of a list of times; NaN for an empty list. */
export function summarizeLatency(times: readonly number[]): LatencySummary {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50_ms: nearestRank(sorted, 0.5),
    p95_ms: nearestRank(sorted, 0.95),
    max_ms: sorted.at(-1) ?? Number.NaN,
  };
}

function nearestRank(sorted: readonly number[], quantile: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil(quantile * sorted.length) - 1)] ?? Number.NaN;
}

function ratio(numerator: number, denominator: number): number {
  return denominator > 0 ? Math.round((numerator / denominator) * 1000) / 1000 : Number.NaN;
}

function round(value: number): number {
  return Math.round(value);
}
