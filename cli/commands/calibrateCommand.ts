/**
 * `decisions calibrate`: fits each question's temperature (and finds its error-budget threshold)
 * from labelled decisions weighted by the inverse of their probability of review (audit items
 * 1/audit_rate), estimates the accuracy of automated decisions from the audit items, reports
 * before and after on a held-out split, and with `--write` writes them into the policy file under
 * a new version. With `--model` it first scores the labelled
 * states again in-process, every question in `--layout`, so that layouts can be compared.
 *
 * This module runs the steps; the flags, the usage text and each step are in `calibrate/`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import type { Policy } from "../../core/policy/Policy.js";
import { parsePolicy } from "../../core/policy/parsePolicy.js";
import type { CalibrationReport } from "../../evaluation/calibration/calibratePolicy.js";
import { formatCalibrationReport } from "../../evaluation/calibration/formatCalibrationReport.js";
import type { LabelledScoring } from "../../evaluation/calibration/scoreLabelledDecisions.js";
import { writeCalibrationReport } from "../../evaluation/calibration/writeCalibrationReport.js";
import type { CliCommand, CliOutput } from "../types.js";
import { fitCalibration } from "./calibrate/fitCalibration.js";
import { type CalibratePlan, checkPlanAgainstPolicy, planCalibrate } from "./calibrate/planCalibrate.js";
import { readLabelledLines } from "./calibrate/readLabelledLines.js";
import { rescoreLabelled } from "./calibrate/rescoreLabelled.js";
import { simulateBudgets } from "./calibrate/simulateBudgets.js";
import { CALIBRATE_USAGE } from "./calibrate/usage.js";
import { type PolicyFile, writeCalibratedPolicy } from "./calibrate/writeCalibratedPolicy.js";

/** Builds the `decisions calibrate` command writing to `stdout` / `stderr` (tests pass their own). */
export function createCalibrateCommand(output: Partial<CliOutput> = {}): CliCommand {
  const streams: CliOutput = {
    stdout: output.stdout ?? process.stdout,
    stderr: output.stderr ?? process.stderr,
  };
  return {
    async run(args) {
      const plan = planCalibrate(args);
      if (plan.mode === "help") {
        streams.stdout.write(CALIBRATE_USAGE);
        return 0;
      }
      const file: PolicyFile = { path: plan.policyPath, text: await readFile(plan.policyPath, "utf8") };
      const policy = parsePolicy(file.text, file.path);
      checkPlanAgainstPolicy(plan, policy);
      if (plan.mode === "simulate") return simulateBudgets(plan, policy, streams);
      return calibrate(plan, file, policy, streams);
    },
  };
}

/**
 * Calibrates the labelled lines (scored again first with `--model`), writes the policy with
 * `--write` unless a threshold is unfit (and not `--force`d), writes and prints the report.
 *
 * @returns the exit code: 1 when no question could be calibrated or `--write` was refused
 */
async function calibrate(
  plan: Extract<CalibratePlan, { mode: "calibrate" }>,
  file: PolicyFile,
  policy: Policy,
  { stdout, stderr }: CliOutput,
): Promise<number> {
  let lines = await readLabelledLines(plan.labelledPath, policy.name, plan.limit);
  let scoring: LabelledScoring | undefined;
  if (plan.model !== undefined)
    ({ lines, scoring } = await rescoreLabelled(plan.model, policy, lines, stderr));
  const { report, calibrated, unfit } = fitCalibration(plan, policy, lines, scoring, stderr);
  const refused = plan.write && unfit.length > 0 && !plan.force;
  const written =
    plan.write && calibrated.length > 0 && !refused
      ? await writeCalibratedPolicy(file, calibrated, stderr)
      : undefined;
  await printReport(plan.out, policy, report, written, stdout);
  if (calibrated.length === 0) {
    stderr.write("calibrate: no question has enough labelled decisions to calibrate\n");
    return 1;
  }
  if (refused) {
    stderr.write(
      `calibrate: --write refused, ${file.path} is unchanged: the threshold of ${unfit.map((question) => question.id).join(", ")} does not keep the error budget ${plan.errorBudget} on the held-out split; label more decisions, raise --error-budget, or add --force to write it anyway\n`,
    );
    return 1;
  }
  return 0;
}

/** Writes the report into `--out` (default a new folder of lab/bench/results) and prints it and its files. */
async function printReport(
  out: string | undefined,
  policy: Policy,
  report: CalibrationReport,
  written: { file: string; version: string } | undefined,
  stdout: CliOutput["stdout"],
): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const outDir = out ?? join(packageRoot(), "lab", "bench", "results", `calibrate-${policy.name}-${stamp}`);
  const paths = await writeCalibrationReport(outDir, report, written);
  stdout.write(formatCalibrationReport(report, written));
  stdout.write(`\n${paths.map((path) => `wrote ${path}`).join("\n")}\n`);
}

/** The `decisions calibrate` command, writing to the process's stdout and stderr. */
export const calibrateCommand: CliCommand = createCalibrateCommand();
