/**
 * `decisions calibrate`: fits each question's temperature (and finds its error-budget threshold)
 * from labelled decisions weighted by the inverse of their probability of review (audit items
 * 1/audit_rate), estimates the accuracy of automated decisions from the audit items, reports
 * before and after on a held-out split, and with `--write` writes them into the policy file under
 * a new version. With `--model` it first scores the labelled
 * states again in-process, every question in `--layout`, so that layouts can be compared.
 */
import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import { Scorer } from "../../adapter/engine/Scorer.js";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { formatBudgetSimulation } from "../../evaluation/budget/formatBudgetSimulation.js";
import { simulateReviewBudget } from "../../evaluation/budget/simulateReviewBudget.js";
import { calibratePolicy } from "../../evaluation/calibration/calibratePolicy.js";
import { collectForecasts } from "../../evaluation/calibration/collectForecasts.js";
import { formatCalibrationReport } from "../../evaluation/calibration/formatCalibrationReport.js";
import {
  type LabelledLine,
  readLabelledDecisions,
} from "../../evaluation/calibration/readLabelledDecisions.js";
import {
  type LabelledScoring,
  scoreLabelledDecisions,
} from "../../evaluation/calibration/scoreLabelledDecisions.js";
import { writeCalibrationReport } from "../../evaluation/calibration/writeCalibrationReport.js";
import {
  type QuestionCalibration,
  writePolicyCalibration,
} from "../../evaluation/calibration/writePolicyCalibration.js";
import {
  DEFAULT_LAYOUT,
  isLayoutChoice,
  LAYOUT_CHOICES,
  type LayoutChoice,
} from "../../evaluation/layoutChoices.js";
import type { Policy } from "../../functions/policy/Policy.js";
import { parsePolicy } from "../../functions/policy/parsePolicy.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

/** Defaults of the flags, used by the parser and the usage text alike. */
const DEFAULTS = {
  errorBudget: 0.05,
  holdout: 0.3,
  seed: 0,
  layout: DEFAULT_LAYOUT,
  auditShare: 0.5,
  replications: 200,
} as const;

/** The context size items are scored again with (`--model`), as `jevbench` runs its cases. */
const CONTEXT_SIZE = 8192;

const USAGE = `usage: decisions calibrate <labelled.jsonl> --policy <name|file.yaml> [--question <id>]
         [--error-budget ${DEFAULTS.errorBudget}] [--bias] [--holdout ${DEFAULTS.holdout}] [--seed ${DEFAULTS.seed}] [--limit N] [--out <dir>] [--write [--force]]
         [--model <file.gguf> [--layout ${LAYOUT_CHOICES.join("|")}] [--threads N]]
       decisions calibrate <labelled.jsonl> --policy <name|file.yaml> --simulate-budget N [--question <id>]
         [--audit-share ${DEFAULTS.auditShare}] [--replications ${DEFAULTS.replications}] [--seed ${DEFAULTS.seed}] [--error-budget ${DEFAULTS.errorBudget}]

Fits a temperature per question by maximum likelihood on labelled decisions (the format
\`decisions outcomes export --labelled\` writes; see evaluation/README.md), reports accuracy,
Brier score, NLL and 10-bin ECE before and after on a held-out split, and finds the lowest
probability threshold whose automated decisions keep within the error budget. Each label is
weighted by the inverse of its probability of review: 1 for a fallback, 1/audit_rate for an
audit item; from the audit items alone it reports the accuracy of automated decisions with a
95 % Wilson interval.

  --policy        a policy name (policies/<name>.yaml) or a policy file
  --question      calibrate this question only (default: every question with labels)
  --error-budget  highest error rate of automated decisions (default ${DEFAULTS.errorBudget})
  --bias          also fit a per-label bias (contextual calibration) and report it; policies
                  hold no biases, so only the temperature and threshold are written
  --holdout       share of the items held out for evaluation (default ${DEFAULTS.holdout})
  --seed          seed of the held-out split (default ${DEFAULTS.seed})
  --limit         use the policy's first N labelled lines only (default: all)
  --model         score every labelled line's \`state\` again in-process on this GGUF, asking all
                  the policy's questions as the pipeline does, and calibrate those answers instead
                  of the recorded ones (each line then needs \`state\`; see evaluation/README.md)
  --layout        with --model: the prompt layout every question is asked in, one of
                  ${LAYOUT_CHOICES.join(", ")} (default ${DEFAULTS.layout});
                  the report names it and the prompt_version answered. With --write it must
                  be the layout the policy asks each calibrated question in
  --threads       with --model: CPU threads (default: all cores)
  --out           folder for calibration.md, calibration.json and the charts
                  (default: lab/bench/results/calibrate-<policy>-<timestamp>)
  --write         write the temperatures and thresholds into the policy file, with a new version;
                  refused (nothing written, exit 1) when a chosen threshold errs above the budget
                  on the held-out split or automates none of it
  --force         with --write: write such thresholds all the same

  --simulate-budget  replay the export instead of calibrating: for a budget of N labels chosen
                  newest first, uniformly, by margin with audit items ranked among the
                  fallbacks, in the console's margin order (audit items first), and with
                  stratified audits then margin, print the automated error's 95 % interval width
                  (with its bias, RMSE and coverage against what every label gives) and the
                  threshold's distance from the one every label gives (evaluation/README.md)
  --audit-share   with --simulate-budget: share of the budget the audit sample is sized for
                  (default ${DEFAULTS.auditShare}); strata rates come from the policy's audit_strata
  --replications  with --simulate-budget: draws per strategy (default ${DEFAULTS.replications}; --seed seeds them)
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
          limit: { type: "string" },
          model: { type: "string" },
          layout: { type: "string" },
          threads: { type: "string" },
          out: { type: "string" },
          write: { type: "boolean", default: false },
          force: { type: "boolean", default: false },
          "simulate-budget": { type: "string" },
          "audit-share": { type: "string" },
          replications: { type: "string" },
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
      const limit = positiveInteger("--limit", values.limit);
      const threads = positiveInteger("--threads", values.threads);
      const layout = layoutOf(values.layout ?? DEFAULTS.layout);
      const model = values.model;
      if (model === undefined && (values.layout !== undefined || threads !== undefined)) {
        throw new UsageError(
          `${values.layout !== undefined ? "--layout" : "--threads"} needs --model: without it the recorded distributions are calibrated, in the layout each item was decided in`,
          { usage: USAGE },
        );
      }

      const budget = positiveInteger("--simulate-budget", values["simulate-budget"]);
      if (budget === undefined && (values["audit-share"] !== undefined || values.replications !== undefined))
        throw new UsageError("--audit-share and --replications need --simulate-budget", { usage: USAGE });
      if (budget !== undefined && (values.write || model !== undefined || values.bias))
        throw new UsageError("--simulate-budget replays the export: leave out --write, --model and --bias", {
          usage: USAGE,
        });

      const policyPath = policyFileOf(values.policy);
      const policyText = await readFile(policyPath, "utf8");
      const policy = parsePolicy(policyText, policyPath);
      if (values.question !== undefined && policy.question(values.question) === undefined) {
        throw new UsageError(
          `policy ${policy.name} has no question "${values.question}" (${policy.questions.map((q) => q.id).join(", ")})`,
        );
      }
      if (values.force && !values.write) throw new UsageError("--force needs --write", { usage: USAGE });
      if (budget !== undefined) {
        const lines = firstLines(
          readLabelledDecisions(await readFile(labelledPath, "utf8"), labelledPath),
          policy.name,
          limit,
        );
        const collected = collectForecasts(policy, lines, values.question);
        let simulated = 0;
        for (const [question, forecasts] of collected.questions) {
          if (!forecasts.some((forecast) => forecast.audit !== undefined)) {
            stderr.write(`calibrate: ${question}: no audit items in the export, nothing to simulate\n`);
            continue;
          }
          const simulation = simulateReviewBudget(policy, question, forecasts, {
            budget,
            auditShare: fraction("--audit-share", values["audit-share"] ?? String(DEFAULTS.auditShare)),
            replications: positiveInteger("--replications", values.replications) ?? DEFAULTS.replications,
            seed,
            errorBudget,
          });
          stdout.write(formatBudgetSimulation(simulation));
          simulated += 1;
        }
        return simulated > 0 ? 0 : 1;
      }
      if (model !== undefined && values.write) refuseOtherLayout(policy, layout, values.question);
      let lines = firstLines(
        readLabelledDecisions(await readFile(labelledPath, "utf8"), labelledPath),
        policy.name,
        limit,
      );
      let scoring: LabelledScoring | undefined;
      if (model !== undefined) {
        stderr.write(`calibrate: scoring the labelled states again on ${model}, layout ${layout}\n`);
        const scorer = await Scorer.load({
          modelPath: model,
          threads: threads ?? availableParallelism(),
          contextSize: CONTEXT_SIZE,
        });
        try {
          const scored = await scoreLabelledDecisions(scorer, policy, lines, {
            layout,
            onLine: (done, total) => {
              if (done % 25 === 0 || done === total)
                stderr.write(`calibrate: ${done}/${total} lines scored\n`);
            },
          });
          lines = scored.lines;
          scoring = scored.scoring;
        } finally {
          await scorer.dispose();
        }
        for (const failure of scoring.failed) {
          stderr.write(`calibrate: line ${failure.line} (${failure.id}) left out: ${failure.error}\n`);
        }
      }
      const collected = collectForecasts(policy, lines, values.question);
      if (collected.other_policy_lines > 0) {
        stderr.write(`calibrate: skipped ${collected.other_policy_lines} lines of other policies\n`);
      }
      const report = calibratePolicy(policy, collected.questions, {
        errorBudget,
        heldOut: { fraction: holdout, seed },
        bias: values.bias,
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
      const refused = values.write && unfit.length > 0 && !values.force;

      let written: { file: string; version: string } | undefined;
      if (values.write && calibrated.length > 0 && !refused) {
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
        values.out ?? join(packageRoot(), "lab", "bench", "results", `calibrate-${policy.name}-${stamp}`);
      const paths = await writeCalibrationReport(outDir, report, written);
      stdout.write(formatCalibrationReport(report, written));
      stdout.write(`\n${paths.map((path) => `wrote ${path}`).join("\n")}\n`);
      if (calibrated.length === 0) {
        stderr.write("calibrate: no question has enough labelled decisions to calibrate\n");
        return 1;
      }
      if (refused) {
        stderr.write(
          `calibrate: --write refused, ${policyPath} is unchanged: the threshold of ${unfit.map((question) => question.id).join(", ")} does not keep the error budget ${errorBudget} on the held-out split; label more decisions, raise --error-budget, or add --force to write it anyway\n`,
        );
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

/** `--layout`: one of {@link LAYOUT_CHOICES}. */
function layoutOf(value: string): LayoutChoice {
  if (!isLayoutChoice(value)) {
    throw new UsageError(`--layout takes ${LAYOUT_CHOICES.join(", ")}; got ${value}`, { usage: USAGE });
  }
  return value;
}

/**
 * A temperature fitted on answers in one layout does not fit another: `--write` with `--model`
 * needs the layout the policy asks each calibrated question in.
 */
function refuseOtherLayout(policy: Policy, layout: LayoutChoice, only: string | undefined): void {
  for (const question of policy.questions) {
    if (only !== undefined && question.id !== only) continue;
    const asked = question.layout ?? DEFAULT_LAYOUT;
    if (asked !== layout) {
      throw new UsageError(
        `--write: policy ${policy.name} asks "${question.id}" in layout ${asked}; a temperature fitted on ${layout} answers does not apply to it (set its layout in the policy, or leave out --write to compare)`,
        { usage: USAGE },
      );
    }
  }
}

/** With a limit: the policy's first `limit` lines (other policies' lines are kept, to be counted and skipped). */
function firstLines(lines: LabelledLine[], policy: string, limit: number | undefined): LabelledLine[] {
  if (limit === undefined) return lines;
  let kept = 0;
  return lines.filter(({ decision }) => {
    if (decision.policy !== policy) return true;
    kept += 1;
    return kept <= limit;
  });
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new UsageError(`${flag} must be a positive integer, got ${value}`, { usage: USAGE });
  }
  return number;
}

function fraction(flag: string, value: string): number {
  const number = Number(value);
  if (!(number > 0 && number < 1))
    throw new UsageError(`${flag} must be a number between 0 and 1, got ${value}`);
  return number;
}

/** The `decisions calibrate` command, writing to the process's stdout and stderr. */
export const calibrateCommand: CliCommand = createCalibrateCommand();
