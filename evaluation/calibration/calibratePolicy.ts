import type { Policy } from "../../core/policy/Policy.js";
import { type CoveragePoint, coverageErrorCurve } from "../metrics/coverageErrorCurve.js";
import { type ForecastMetrics, forecastMetrics } from "../metrics/forecastMetrics.js";
import { gradeForecasts } from "../metrics/gradeForecasts.js";
import type { Forecast, GradedDecision, PredictionOptions } from "../metrics/types.js";
import { weightOf } from "../metrics/weightOf.js";
import { weightedWilsonInterval } from "../metrics/wilsonScoreInterval.js";
import { calibrateForecast } from "./calibrateForecast.js";
import type { LabelledForecast } from "./collectForecasts.js";
import { type AutomatedAccuracy, estimateAutomatedAccuracy } from "./estimateAutomatedAccuracy.js";
import { findThreshold, type ThresholdChoice } from "./findThreshold.js";
import { fitContextualCalibration } from "./fitContextualCalibration.js";
import { fitTemperature } from "./fitTemperature.js";
import { type HeldOutJudgement, judgeHeldOut, type ThresholdOutcome } from "./judgeHeldOut.js";
import type { LabelledScoring } from "./scoreLabelledDecisions.js";
import { type HeldOutOptions, splitHeldOut } from "./splitHeldOut.js";

/** Options of {@link calibratePolicy}; every field has a default. */
export interface CalibrateOptions {
  /** Highest acceptable error rate of automated decisions. Default 0.05. */
  errorBudget?: number;
  /** The held-out split. Default 30 % held out, seed 0. */
  heldOut?: HeldOutOptions;
  /** z of the Wilson bound the threshold search keeps within the budget (see `findThreshold`). Default 1.645. */
  z?: number;
  /** Also fit a per-label bias (contextual calibration) and report it. Default false. */
  bias?: boolean;
  /** Fewest labelled decisions a question needs in each split. Default 20 to fit, 10 held out. */
  minFit?: number;
  minHeldOut?: number;
}

/** The calibration of one question. */
export interface QuestionCalibrationReport {
  id: string;
  type: string;
  labelled: number;
  /** Of the labelled decisions, those of audit items (weighted 1/`audit_rate` everywhere). */
  audit_n: number;
  fit_n: number;
  held_out_n: number;
  /**
   * The accuracy of the automated decisions as they were made, estimated from the audit items with
   * a 95 % Wilson interval (see `estimateAutomatedAccuracy`); absent without audit items. Reported
   * whether or not the question has enough labels to calibrate.
   */
  automated_accuracy?: AutomatedAccuracy;
  /** Set when the question was not calibrated (too few labels), with why. */
  skipped?: string;
  /** The policy's values now. */
  current: { temperature: number; threshold: number };
  /** The fitted temperature (rounded to 3 decimals, as written) and the fit's likelihood on the fit split. */
  fitted?: { temperature: number; at_bound: boolean; nll_fit_before: number; nll_fit_after: number };
  /** Held-out metrics with the policy's current temperature and with the fitted one. */
  held_out?: { before: ForecastMetrics; after: ForecastMetrics };
  /** With `bias`: the contextual calibration fit and its held-out metrics (not written: policies have no bias). */
  contextual?: { temperature: number; bias: Record<string, number>; held_out: ForecastMetrics };
  /** The threshold chosen on the fit split (after calibration). */
  threshold?: ThresholdChoice;
  /** That threshold on the held-out split (after calibration); null when no threshold met the budget. */
  threshold_held_out?: ThresholdOutcome | null;
  /**
   * Whether that threshold keeps the error budget on the held-out split (see `judgeHeldOut`);
   * absent when no threshold met the budget on the fit split.
   */
  held_out_budget?: HeldOutJudgement;
  /** The current threshold and temperature on the held-out split, for comparison. */
  current_held_out?: ThresholdOutcome;
  /** Coverage and error against the threshold on the held-out split, after calibration. */
  curve?: CoveragePoint[];
}

/** What {@link calibratePolicy} returns. */
export interface CalibrationReport {
  policy: string;
  policy_version: string;
  error_budget: number;
  held_out: { fraction: number; seed: number };
  z: number;
  /** Argmax ties go to the label offered first, as the policy decides. */
  ties: "first-offered";
  questions: QuestionCalibrationReport[];
  /**
   * Set by the caller when the labelled states were scored again (`scoreLabelledDecisions`): the
   * model, the layout every question was asked in and the prompt versions answered. Absent: the
   * distributions are the recorded ones, in whatever layout each item was decided.
   */
  scoring?: LabelledScoring;
}

const PREDICTION: PredictionOptions = { ties: "first-offered" };

/**
 * Calibrates each question with labelled decisions: splits them (seeded, by item id) into a fit
 * and a held-out set; fits a temperature by maximum likelihood on the fit set (and, with `bias`,
 * a contextual calibration for comparison); finds on the fit set the lowest threshold whose
 * automated decisions keep within the error budget; and reports accuracy, Brier, NLL and ECE
 * before (the policy's current temperature) and after on the held-out set, with the chosen
 * threshold's coverage and error there. Predictions follow the policy (ties: first offered).
 *
 * Every label is weighted by the inverse of its probability of reaching a person (1 for a
 * fallback, 1/`audit_rate` for an audit item; `LabelledForecast.weight`): the temperature fit,
 * the threshold search and the held-out metrics then describe all of the policy's items, not only
 * the uncertain ones that fall back. `bias`'s contextual fit is unweighted (a comparison only).
 * With audit items each question also gets the accuracy of its automated decisions.
 */
export function calibratePolicy(
  policy: Policy,
  labelled: ReadonlyMap<string, readonly LabelledForecast[]>,
  options: CalibrateOptions = {},
): CalibrationReport {
  const errorBudget = options.errorBudget ?? 0.05;
  const heldOut = { fraction: options.heldOut?.fraction ?? 0.3, seed: options.heldOut?.seed ?? 0 };
  const z = options.z ?? 1.645;
  const questions: QuestionCalibrationReport[] = [];
  for (const [id, forecasts] of labelled) {
    const question = policy.question(id);
    if (question === undefined) continue;
    const split = splitHeldOut(forecasts, (forecast) => forecast.id, heldOut);
    const report: QuestionCalibrationReport = {
      id,
      type: question.type,
      labelled: forecasts.length,
      audit_n: forecasts.filter((forecast) => forecast.audit !== undefined).length,
      fit_n: split.fit.length,
      held_out_n: split.heldOut.length,
      current: { temperature: question.temperature ?? 1, threshold: question.threshold },
    };
    const automated = estimateAutomatedAccuracy(forecasts);
    if (automated !== undefined) report.automated_accuracy = automated;
    const minFit = options.minFit ?? 20;
    const minHeldOut = options.minHeldOut ?? 10;
    if (split.fit.length < minFit || split.heldOut.length < minHeldOut) {
      report.skipped =
        forecasts.length === 0
          ? "no labelled decisions"
          : `needs at least ${minFit} labelled decisions to fit and ${minHeldOut} held out; has ${split.fit.length} and ${split.heldOut.length}`;
      questions.push(report);
      continue;
    }
    const fitRaw = split.fit.map((forecast) => forecast.raw);
    const heldOutRaw = split.heldOut.map((forecast) => forecast.raw);
    const fit = fitTemperature(fitRaw);
    // Rounded first: what is written is what is evaluated.
    const temperature = Number(fit.temperature.toFixed(3));
    const after = (forecast: Forecast): Forecast => calibrateForecast(forecast, { temperature });
    report.fitted = {
      temperature,
      at_bound: fit.at_bound,
      nll_fit_before: fit.nll_before,
      nll_fit_after: fit.nll_after,
    };
    const heldOutAfter = heldOutRaw.map(after);
    report.held_out = {
      before: forecastMetrics(
        split.heldOut.map((forecast) => forecast.recorded),
        PREDICTION,
      ),
      after: forecastMetrics(heldOutAfter, PREDICTION),
    };
    if (options.bias === true) {
      const contextual = fitContextualCalibration(fitRaw);
      const map = { temperature: contextual.temperature, bias: contextual.bias };
      report.contextual = {
        temperature: contextual.temperature,
        bias: Object.fromEntries(question.labels.map((label, k) => [label, contextual.bias[k] ?? 0])),
        held_out: forecastMetrics(
          heldOutRaw.map((forecast) => calibrateForecast(forecast, map)),
          PREDICTION,
        ),
      };
    }
    const fitDecisions = gradeForecasts(fitRaw.map(after), PREDICTION);
    const heldOutDecisions = gradeForecasts(heldOutAfter, PREDICTION);
    const choice = findThreshold(fitDecisions, { errorBudget, z });
    report.threshold = choice;
    report.threshold_held_out =
      choice.threshold === null ? null : outcomeAt(heldOutDecisions, choice.threshold, z);
    if (report.threshold_held_out !== null) {
      report.held_out_budget = judgeHeldOut(report.threshold_held_out, errorBudget);
    }
    report.current_held_out = outcomeAt(
      gradeForecasts(
        split.heldOut.map((forecast) => forecast.recorded),
        PREDICTION,
      ),
      question.threshold,
      z,
    );
    report.curve = coverageErrorCurve(heldOutDecisions);
    questions.push(report);
  }
  return {
    policy: policy.name,
    policy_version: policy.version,
    error_budget: errorBudget,
    held_out: heldOut,
    z,
    ties: "first-offered",
    questions,
  };
}

/**
 * Coverage and error of automating the decisions at or above a threshold. Coverage and error rate
 * are weighted by the decisions' weights (default 1), the bound's n is their effective sample
 * size; `automated` and `errors` are counts.
 */
export function outcomeAt(
  decisions: readonly GradedDecision[],
  threshold: number,
  z = 1.645,
): ThresholdOutcome {
  const automated = decisions.filter((decision) => decision.confidence >= threshold);
  const wrong = automated.filter((decision) => !decision.correct);
  const total = decisions.reduce((sum, decision) => sum + weightOf(decision), 0);
  const weight = automated.reduce((sum, decision) => sum + weightOf(decision), 0);
  const squares = automated.reduce((sum, decision) => sum + weightOf(decision) ** 2, 0);
  const wrongWeight = wrong.reduce((sum, decision) => sum + weightOf(decision), 0);
  return {
    threshold,
    automated: automated.length,
    errors: wrong.length,
    coverage: decisions.length === 0 ? 0 : weight / total,
    error_rate: automated.length === 0 ? 0 : wrongWeight / weight,
    error_upper_bound: weightedWilsonInterval(wrongWeight, weight, squares, z).upper,
  };
}
