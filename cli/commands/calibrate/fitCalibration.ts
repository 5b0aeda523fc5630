/** The fit of `decisions calibrate`: per question a temperature and threshold from the labelled lines. */

import type { Policy } from "../../../core/policy/Policy.js";
import {
  type CalibrationReport,
  calibratePolicy,
  type QuestionCalibrationReport,
} from "../../../evaluation/calibration/calibratePolicy.js";
import { collectForecasts } from "../../../evaluation/calibration/collectForecasts.js";
import type { LabelledLine } from "../../../evaluation/calibration/readLabelledDecisions.js";
import type { LabelledScoring } from "../../../evaluation/calibration/scoreLabelledDecisions.js";
import type { CliOutput } from "../../types.js";
import type { CalibratePlan } from "./planCalibrate.js";

/** What {@link fitCalibration} returns. */
export interface FittedCalibration {
  /** The report, with `scoring` when the lines were scored again. */
  readonly report: CalibrationReport;
  /** The questions a temperature was fitted for. */
  readonly calibrated: readonly QuestionCalibrationReport[];
  /** Of those, the ones whose threshold may not be written: it errs above the budget held out. */
  readonly unfit: readonly QuestionCalibrationReport[];
}

/**
 * Collects the policy's labelled forecasts (counting other policies' lines on stderr), calibrates
 * them as the plan says, and warns on stderr of each threshold the held-out split does not confirm.
 */
export function fitCalibration(
  plan: Extract<CalibratePlan, { mode: "calibrate" }>,
  policy: Policy,
  lines: readonly LabelledLine[],
  scoring: LabelledScoring | undefined,
  stderr: CliOutput["stderr"],
): FittedCalibration {
  const collected = collectForecasts(policy, lines, plan.question);
  if (collected.other_policy_lines > 0) {
    stderr.write(`calibrate: skipped ${collected.other_policy_lines} lines of other policies\n`);
  }
  const report = calibratePolicy(policy, collected.questions, {
    errorBudget: plan.errorBudget,
    heldOut: { fraction: plan.holdout, seed: plan.seed },
    bias: plan.bias,
  });
  if (scoring !== undefined) report.scoring = scoring;
  const calibrated = report.questions.filter((question) => question.fitted !== undefined);
  for (const question of calibrated) {
    const judged = question.held_out_budget;
    if (judged !== undefined && judged.verdict !== "confirmed") {
      stderr.write(`calibrate: warning: ${question.id}: ${judged.message}\n`);
    }
  }
  const unfit = calibrated.filter((question) => question.held_out_budget?.writable === false);
  return { report, calibrated, unfit };
}
