import { seededUniform } from "../../core/common/SeededRandom.js";
import type { Policy } from "../../core/policy/Policy.js";
import type { LabelledForecast } from "../calibration/collectForecasts.js";
import { estimateAutomatedAccuracy } from "../calibration/estimateAutomatedAccuracy.js";
import { findThreshold } from "../calibration/findThreshold.js";
import { predictedLabel } from "../metrics/predictedLabel.js";
import type { GradedDecision } from "../metrics/types.js";

/**
 * How a budget of labels is spent:
 * - `newest`: today's console — fallbacks and uniformly drawn audit items in one queue, the
 *   newest `N` labelled;
 * - `uniform`: `N` items of that queue drawn at random;
 * - `margin-mixed`: that queue by margin alone, audit items ranked among the fallbacks (what the
 *   console's order would be without putting audit items first: biased, shown to say why);
 * - `margin`: the console's `margin` order — every audit item first (uniform rate, a complete
 *   probability sample), the rest of the budget on fallbacks nearest the threshold first;
 * - `strata+margin`: as `margin` with audits drawn by confidence bin (`audit_strata`).
 */
export const BUDGET_STRATEGIES = ["newest", "uniform", "margin-mixed", "margin", "strata+margin"] as const;

/** One of {@link BUDGET_STRATEGIES}. */
export type BudgetStrategy = (typeof BUDGET_STRATEGIES)[number];

/** Relative audit rates by confidence bin (`below` exclusive; the last without). */
export interface SimulatedStratum {
  below?: number;
  rate: number;
}

/** Options of {@link simulateReviewBudget}. */
export interface BudgetSimulationOptions {
  /** Labels people give. */
  budget: number;
  /** Share of the budget the audit sample is sized for (its expected count). Default 0.5. */
  auditShare?: number;
  /** Draws of the audit sample and of `uniform`, each with its own seed. Default 200. */
  replications?: number;
  /** Seed of the first draw. Default 0. */
  seed?: number;
  /** Error budget of the threshold search. Default 0.05. */
  errorBudget?: number;
  /** z of the threshold search's Wilson bound. Default 1.645. */
  z?: number;
  /**
   * Relative audit rates by confidence for `strata+margin` (scaled to the audit share). Default:
   * the policy's `audit_strata`, else 4:2:1 over the quarters of [threshold, 1] (4 the lowest).
   */
  strata?: readonly SimulatedStratum[];
}

/** One strategy's results over the replications. */
export interface BudgetStrategyResult {
  strategy: BudgetStrategy;
  /** Mean labels given to audit items and to fallbacks per replication. */
  audit_labels: number;
  fallback_labels: number;
  /** The automated error as `calibrate` estimates it from the chosen labels: mean, bias, RMSE against the truth. */
  error_mean: number;
  error_bias: number;
  error_rmse: number;
  /** Mean width of its 95 % interval, and the share of intervals holding the true error. */
  interval_width: number;
  interval_coverage: number;
  /** Mean |threshold − the threshold all labels give|, over replications that found one. */
  threshold_distance: number;
  /** Replications in which no threshold met the budget on the chosen labels. */
  threshold_missing: number;
}

/** What {@link simulateReviewBudget} returns. */
export interface BudgetSimulation {
  question: string;
  budget: number;
  replications: number;
  /** Items of the export: decided (audit lines) and fallbacks. */
  decided: number;
  fallbacks: number;
  /** The truth from every label of the export: the automated error and the threshold they give. */
  true_error: number;
  reference_threshold: number | null;
  /** The uniform audit rate the audit share gives, and the stratified rates (scaled). */
  audit_rate: number;
  strata_rates: { below?: number; rate: number }[];
  /** Audit items whose design probability had to be capped at the export's own rate (a thinned export cannot label more). */
  capped: number;
  results: BudgetStrategyResult[];
}

/** One item of the replayed export. */
interface Unit {
  forecast: LabelledForecast;
  index: number;
  decided: boolean;
  confidence: number;
  correct: boolean;
  margin: number;
  /** Probability the export labelled it (the audit rate it was drawn at; 1 for a fallback). */
  exportRate: number;
}

/**
 * Replays a labelled export to show what a budget of `budget` labels buys under each
 * {@link BudgetStrategy}: the automated error `calibrate` would estimate from the labels chosen
 * (its 95 % interval's width, its bias and RMSE against the error every label gives) and the
 * distance of the threshold `findThreshold` picks on them from the one every label gives. The
 * export is thinned: an item the export labelled with probability r is kept with probability
 * π/r, so a design probability π above r is capped at r (counted in `capped`); an export that
 * labels every item (generated traffic, `audit.rate` 1) allows any design. Thresholds are searched
 * on the recorded distributions, without fitting a temperature, so only the labels differ.
 *
 * @param forecasts one question's labelled forecasts in the export's (time) order
 * @throws RangeError for a budget below 1 or an export without audit items
 */
export function simulateReviewBudget(
  policy: Policy,
  question: string,
  forecasts: readonly LabelledForecast[],
  options: BudgetSimulationOptions,
): BudgetSimulation {
  const threshold = policy.question(question)?.threshold;
  if (threshold === undefined) throw new RangeError(`policy ${policy.name} has no question "${question}"`);
  if (!(Number.isInteger(options.budget) && options.budget >= 1))
    throw new RangeError(`the budget must be a whole number of labels, got ${options.budget}`);
  const units: Unit[] = forecasts.map((forecast, index) => {
    const confidence = Math.max(...forecast.recorded.probabilities);
    const predicted = predictedLabel(forecast.recorded, "first-offered");
    return {
      forecast,
      index,
      decided: forecast.audit !== undefined,
      confidence,
      correct: (forecast.audit?.automated_answer ?? predicted) === forecast.recorded.expected,
      margin: Math.abs(confidence - threshold),
      exportRate: forecast.audit?.rate ?? 1,
    };
  });
  const decided = units.filter((unit) => unit.decided);
  const fallbacks = units.filter((unit) => !unit.decided);
  if (decided.length === 0)
    throw new RangeError("the export holds no audit items: nothing to estimate the automated error from");
  const population = decided.reduce((sum, unit) => sum + 1 / unit.exportRate, 0);
  const errorBudget = options.errorBudget ?? 0.05;
  const z = options.z ?? 1.645;
  const truth = accuracyOf(decided.map((unit) => ({ unit, rate: unit.exportRate })));
  const trueError = 1 - (truth?.accuracy ?? 1);
  const reference = findThreshold(
    units.map((unit) => graded(unit, unit.decided ? unit.exportRate : 1)),
    { errorBudget, z },
  ).threshold;

  const auditTarget = Math.max(1, Math.round((options.auditShare ?? 0.5) * options.budget));
  const uniformRate = Math.min(1, auditTarget / population);
  const relative = options.strata ?? policy.auditStrata ?? defaultStrata(threshold);
  const strataRates = scaleStrata(relative, decided, auditTarget);
  const rateOf = (unit: Unit, stratified: boolean): number => {
    if (!stratified) return uniformRate;
    const index = strataRates.findIndex(
      (stratum) => stratum.below === undefined || unit.confidence < stratum.below,
    );
    return strataRates[index]?.rate ?? 0;
  };
  let capped = 0;
  for (const unit of decided)
    if (Math.max(uniformRate, rateOf(unit, true)) > unit.exportRate + 1e-12) capped += 1;

  const replications = options.replications ?? 200;
  const results: BudgetStrategyResult[] = [];
  for (const strategy of BUDGET_STRATEGIES) {
    const runs: {
      audits: number;
      fallbacks: number;
      error?: number;
      width?: number;
      holds?: boolean;
      distance?: number;
    }[] = [];
    for (let replication = 0; replication < replications; replication += 1) {
      const random = seededUniform((options.seed ?? 0) * 1_000_003 + replication);
      const stratified = strategy === "strata+margin";
      // The audit draw: one uniform per decided item, kept when below π/r (π capped at r).
      const audits: { unit: Unit; rate: number }[] = [];
      for (const unit of decided) {
        const rate = Math.min(unit.exportRate, rateOf(unit, stratified));
        if (rate > 0 && random() < rate / unit.exportRate) audits.push({ unit, rate });
      }
      const chosen = chooseLabels(strategy, audits, fallbacks, options.budget, random);
      const accuracy = accuracyOf(chosen.audits);
      const found = findThreshold(
        [
          ...chosen.audits.map(({ unit, rate }) => graded(unit, rate)),
          ...chosen.fallbacks.map((unit) => graded(unit, 1)),
        ],
        { errorBudget, z },
      ).threshold;
      runs.push({
        audits: chosen.audits.length,
        fallbacks: chosen.fallbacks.length,
        ...(accuracy === undefined
          ? {}
          : {
              error: 1 - accuracy.accuracy,
              width: accuracy.interval.upper - accuracy.interval.lower,
              holds: 1 - accuracy.interval.upper <= trueError && trueError <= 1 - accuracy.interval.lower,
            }),
        ...(found === null || reference === null ? {} : { distance: Math.abs(found - reference) }),
      });
    }
    const estimated = runs.filter((run) => run.error !== undefined);
    const mean = (values: number[]) =>
      values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
    const errors = estimated.map((run) => run.error ?? 0);
    const errorMean = mean(errors);
    results.push({
      strategy,
      audit_labels: mean(runs.map((run) => run.audits)),
      fallback_labels: mean(runs.map((run) => run.fallbacks)),
      error_mean: errorMean,
      error_bias: errorMean - trueError,
      error_rmse: Math.sqrt(mean(errors.map((error) => (error - trueError) ** 2))),
      interval_width: mean(estimated.map((run) => run.width ?? 0)),
      interval_coverage: mean(estimated.map((run) => (run.holds ? 1 : 0))),
      threshold_distance: mean(runs.flatMap((run) => (run.distance === undefined ? [] : [run.distance]))),
      threshold_missing: runs.filter((run) => run.distance === undefined).length,
    });
  }
  return {
    question,
    budget: options.budget,
    replications,
    decided: decided.length,
    fallbacks: fallbacks.length,
    true_error: trueError,
    reference_threshold: reference,
    audit_rate: uniformRate,
    strata_rates: strataRates,
    capped,
    results,
  };
}

/** Which of the queue's items get the budget's labels under a strategy. */
function chooseLabels(
  strategy: BudgetStrategy,
  audits: readonly { unit: Unit; rate: number }[],
  fallbacks: readonly Unit[],
  budget: number,
  random: () => number,
): { audits: { unit: Unit; rate: number }[]; fallbacks: Unit[] } {
  const byMargin = (a: Unit, b: Unit) => a.margin - b.margin || b.index - a.index;
  if (strategy === "margin" || strategy === "strata+margin") {
    const kept = audits.slice(0, budget);
    return {
      audits: kept,
      fallbacks: [...fallbacks].sort(byMargin).slice(0, Math.max(0, budget - kept.length)),
    };
  }
  // One queue of fallbacks and audit items, in time order (the export's).
  const queue = [
    ...fallbacks.map((unit) => ({ unit, rate: 1, audit: false })),
    ...audits.map((audit) => ({ ...audit, audit: true })),
  ].sort((a, b) => a.unit.index - b.unit.index);
  let picked: typeof queue;
  if (strategy === "newest") picked = queue.slice(-budget);
  else if (strategy === "margin-mixed")
    picked = [...queue].sort((a, b) => byMargin(a.unit, b.unit)).slice(0, budget);
  else {
    // A seeded partial Fisher–Yates shuffle: `budget` items uniformly without replacement.
    const pool = [...queue];
    for (let i = 0; i < Math.min(budget, pool.length); i += 1) {
      const j = i + Math.floor(random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j] as (typeof pool)[number], pool[i] as (typeof pool)[number]];
    }
    picked = pool.slice(0, budget);
  }
  return {
    audits: picked.filter((entry) => entry.audit).map(({ unit, rate }) => ({ unit, rate })),
    fallbacks: picked.filter((entry) => !entry.audit).map((entry) => entry.unit),
  };
}

/** `calibrate`'s estimate from audit items weighted 1/rate. */
function accuracyOf(audits: readonly { unit: Unit; rate: number }[]) {
  return estimateAutomatedAccuracy(
    audits.map(({ unit, rate }) => ({
      ...unit.forecast,
      weight: 1 / rate,
      audit: {
        rate,
        automated_answer: unit.forecast.audit?.automated_answer ?? "",
        correct: unit.correct,
      },
    })),
  );
}

function graded(unit: Unit, rate: number): GradedDecision {
  return { confidence: unit.confidence, correct: unit.correct, weight: 1 / rate };
}

/** 4:2:1 over the quarters of [threshold, 1]: the least sure quarter at four times the surest half's rate. */
function defaultStrata(threshold: number): SimulatedStratum[] {
  const span = 1 - threshold;
  return [{ below: threshold + span / 4, rate: 4 }, { below: threshold + span / 2, rate: 2 }, { rate: 1 }];
}

/** Scales relative rates by c so that Σ min(1, c·rate) over the decided items (weighted 1/export rate) is `target`. */
function scaleStrata(
  strata: readonly SimulatedStratum[],
  decided: readonly Unit[],
  target: number,
): { below?: number; rate: number }[] {
  const relativeOf = (unit: Unit) =>
    strata.find((stratum) => stratum.below === undefined || unit.confidence < stratum.below)?.rate ?? 0;
  const expected = (c: number) =>
    decided.reduce((sum, unit) => sum + Math.min(1, c * relativeOf(unit)) / unit.exportRate, 0);
  let low = 0;
  let high = 1;
  while (expected(high) < target && high < 1e9) high *= 2;
  for (let i = 0; i < 60; i += 1) {
    const middle = (low + high) / 2;
    if (expected(middle) < target) low = middle;
    else high = middle;
  }
  return strata.map((stratum) => ({
    ...(stratum.below === undefined ? {} : { below: stratum.below }),
    rate: Math.min(1, high * stratum.rate),
  }));
}
