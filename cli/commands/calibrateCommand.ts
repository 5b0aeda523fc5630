/**
 * `decisions calibrate`: fits each question's temperature (and finds its error-budget threshold)
 * from labelled decisions, reports before and after on a held-out split, and with `--write` writes
 * them into the policy file under a new version.
 */
import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { calibratePolicy } from "../../evaluation/calibration/calibratePolicy.js";
import { collectForecasts } from "../../evaluation/calibration/collectForecasts.js";
import { formatCalibrationReport } from "../../evaluation/calibration/formatCalibrationReport.js";
import { readLabelledDecisions } from "../../evaluation/calibration/readLabelledDecisions.js";
import { writeCalibrationReport } from "../../evaluation/calibration/writeCalibrationReport.js";
import {
  type QuestionCalibration,
  writePolicyCalibration,
} from "../../evaluation/calibration/writePolicyCalibration.js";
import { parsePolicy } from "../../functions/policy/parsePolicy.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

/** Defaults of the flags, used by the parser and the usage text alike. */
const DEFAULTS = { errorBudget: 0.05, holdout: 0.3, seed: 0 } as const;

const USAGE = `usage: decisions calibrate <labelled.jsonl> --policy <name|file.yaml> [--question <id>]
         [--error-budget ${DEFAULTS.errorBudget}] [--bias] [--holdout ${DEFAULTS.holdout}] [--seed ${DEFAULTS.seed}] [--out <dir>] [--write]

Fits a temperature per question by maximum likelihood on labelled decisions (the format
\`decisions outcomes export --labelled\` writes; see evaluation/README.md), reports accuracy,
Brier score, NLL and 10-bin ECE before and after on a held-out split, and finds the lowest
probability threshold whose automated decisions keep within the error budget.

  --policy        a policy name (policies/<name>.yaml) or a policy file
  --question      calibrate this question only (default: every question with labels)
  --error-budget  highest error rate of automated decisions (default ${DEFAULTS.errorBudget})
  --bias          also fit a per-label bias (contextual calibration) and report it; policies
                  hold no biases, so only the temperature and threshold are written
  --holdout       share of the items held out for evaluation (default ${DEFAULTS.holdout})
  --seed          seed of the held-out split (default ${DEFAULTS.seed})
  --out           folder for calibration.md, calibration.json and the charts
                  (default: bench/results/calibrate-<policy>-<timestamp>)
  --write         write the temperatures and thresholds into the policy file, with a new version
`;

/** Builds the `decisions calibrate` command writing to `stdout` / `stderr` (tests pass their own). */
export function createCalibrateCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values, positionals } = parseCommandArgs({
        args,
        options: {
          policy: { type: "string" },
          question: { type: "string" },
          "error-budget": { type: "string", default: String(DEFAULTS.errorBudget) },
          bias: { type: "boolean", default: false },
          holdout: { type: "string", default: String(DEFAULTS.holdout) },
          seed: { type: "string", default: String(DEFAULTS.seed) },
          out: { type: "string" },
          write: { type: "boolean", default: false },
          help: { type: "boolean", short: "h", default: false },
        },
        allowPositionals: true,
        usage: USAGE,
      });
      if (values.help) {
        stdout.write(USAGE);
        return 0;
      }
      const [labelledPath, ...extra] = positionals;
      if (labelledPath === undefined || extra.length > 0) {
        throw new UsageError("exactly one labelled JSONL file is needed", { usage: USAGE });
      }
      if (values.policy === undefined) throw new UsageError("--policy is required", { usage: USAGE });
      const errorBudget = fraction("--error-budget", values["error-budget"]);
      const holdout = fraction("--holdout", values.holdout);
      const seed = Number(values.seed);
      if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${values.seed}`);

      const policyPath = policyFileOf(values.policy);
      const policyText = await readFile(policyPath, "utf8");
      const policy = parsePolicy(policyText, policyPath);
      if (values.question !== undefined && policy.question(values.question) === undefined) {
        throw new UsageError(
          `policy ${policy.name} has no question "${values.question}" (${policy.questions.map((q) => q.id).join(", ")})`,
        );
      }
      const lines = readLabelledDecisions(await readFile(labelledPath, "utf8"), labelledPath);
      const collected = collectForecasts(policy, lines, values.question);
      if (collected.other_policy_lines > 0) {
        stderr.write(`calibrate: skipped ${collected.other_policy_lines} lines of other policies\n`);
      }
      const report = calibratePolicy(policy, collected.questions, {
        errorBudget,
        heldOut: { fraction: holdout, seed },
        bias: values.bias,
      });
      const calibrated = report.questions.filter((question) => question.fitted !== undefined);

      let written: { file: string; version: string } | undefined;
      if (values.write && calibrated.length > 0) {
        const updates: Record<string, QuestionCalibration> = {};
        for (const question of calibrated) {
          const threshold = question.threshold?.met === true ? question.threshold.threshold : null;
          updates[question.id] = {
            temperature: question.fitted?.temperature,
            ...(threshold === null || threshold === undefined ? {} : { threshold }),
          };
          if (threshold === null || threshold === undefined) {
            stderr.write(
              `calibrate: ${question.id}: no threshold meets the budget; its threshold is left as it is\n`,
            );
          }
        }
        const edit = writePolicyCalibration(policyText, updates);
        // The edited file must still load, with the values written.
        const check = parsePolicy(edit.text, policyPath);
        for (const [id, update] of Object.entries(updates)) {
          const question = check.question(id);
          const thresholdOk = update.threshold === undefined || question?.threshold === update.threshold;
          if (question?.temperature !== update.temperature || !thresholdOk) {
            throw new Error(
              `the edited policy does not read back ${id}'s new values; ${policyPath} is unchanged`,
            );
          }
        }
        await writeFile(policyPath, edit.text);
        written = { file: policyPath, version: edit.version };
      }
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const outDir =
        values.out ?? join(packageRoot(), "bench", "results", `calibrate-${policy.name}-${stamp}`);
      const paths = await writeCalibrationReport(outDir, report, written);
      stdout.write(formatCalibrationReport(report, written));
      stdout.write(`\n${paths.map((path) => `wrote ${path}`).join("\n")}\n`);
      if (calibrated.length === 0) {
        stderr.write("calibrate: no question has enough labelled decisions to calibrate\n");
        return 1;
      }
      return 0;
    },
  };
}

/** A policy name (`ticket-routing` → policies/ticket-routing.yaml) or a file path. */
function policyFileOf(value: string): string {
  if (/\.ya?ml$/.test(value) || value.includes("/") || value !== basename(value)) return value;
  return join(packageRoot(), "policies", `${value}.yaml`);
}

function fraction(flag: string, value: string): number {
  const number = Number(value);
  if (!(number > 0 && number < 1))
    throw new UsageError(`${flag} must be a number between 0 and 1, got ${value}`);
  return number;
}

/** The `decisions calibrate` command, writing to the process's stdout and stderr. */
export const calibrateCommand: CliCommand = createCalibrateCommand();
