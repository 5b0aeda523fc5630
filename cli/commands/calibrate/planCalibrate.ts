/**
 * What `decisions calibrate` is asked to do, decided from its flags: print the usage, replay the
 * export under a review budget (`simulate`), or calibrate (`calibrate`). Nothing is read or loaded
 * here; the checks that need the policy ({@link checkPlanAgainstPolicy}) or that the command has
 * always made only when a question is simulated ({@link budgetSimulationOptions}) are here too, so
 * that every usage error of the command is written in this one file.
 */
import { basename, join } from "node:path";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { Policy } from "../../../core/policy/Policy.js";
import type { BudgetSimulationOptions } from "../../../evaluation/budget/simulateReviewBudget.js";
import {
  DEFAULT_LAYOUT,
  isLayoutChoice,
  LAYOUT_CHOICES,
  type LayoutChoice,
} from "../../../evaluation/layoutChoices.js";
import { UsageError } from "../../errors.js";
import { parseCommandArgs } from "../../parseCommandArgs.js";
import { CALIBRATE_DEFAULTS, CALIBRATE_USAGE } from "./usage.js";

/** What both runs are given: the labelled file, the policy and the flags they share. */
export interface CalibrateInputs {
  /** The labelled JSONL file (the positional argument). */
  readonly labelledPath: string;
  /** The policy file: `--policy` as given when it names a file, else policies/<name>.yaml. */
  readonly policyPath: string;
  /** `--question`: this question only; undefined for every question with labels. */
  readonly question: string | undefined;
  /** `--limit`: the policy's first N labelled lines only; undefined for all. */
  readonly limit: number | undefined;
  /** `--error-budget` (default 0.05). */
  readonly errorBudget: number;
  /** `--seed` (default 0): of the held-out split, or of the simulation's draws. */
  readonly seed: number;
  /** `--force`; it needs `--write`, which {@link checkPlanAgainstPolicy} checks. */
  readonly force: boolean;
}

/** `--model`: score the labelled states again in-process. */
export interface CalibrateModel {
  /** The GGUF file. */
  readonly path: string;
  /** `--layout` (default `direct-options-v1`): the layout every question is asked in. */
  readonly layout: LayoutChoice;
  /** `--threads`; undefined for every core. */
  readonly threads: number | undefined;
}

/**
 * What {@link planCalibrate} decided. `simulate` keeps `--audit-share` and `--replications` as
 * given: {@link budgetSimulationOptions} reads them when a question with audit items is simulated.
 */
export type CalibratePlan =
  | { readonly mode: "help" }
  | (CalibrateInputs & {
      readonly mode: "simulate";
      /** `--simulate-budget`: labels people give. */
      readonly budget: number;
      /** `--audit-share` as given (default "0.5"). */
      readonly auditShare: string;
      /** `--replications` as given; undefined for the default (200). */
      readonly replications: string | undefined;
    })
  | (CalibrateInputs & {
      readonly mode: "calibrate";
      /** `--holdout` (default 0.3): share of the items held out for evaluation. */
      readonly holdout: number;
      /** `--bias`: also fit a per-label bias. */
      readonly bias: boolean;
      /** `--write`: write the temperatures and thresholds into the policy file. */
      readonly write: boolean;
      /** `--out`; undefined for lab/bench/results/calibrate-<policy>-<timestamp>. */
      readonly out: string | undefined;
      /** `--model` with its `--layout` and `--threads`; undefined to calibrate the recorded answers. */
      readonly model: CalibrateModel | undefined;
    });

/** The `util.parseArgs` table of `decisions calibrate`. */
const FLAGS = {
  policy: { type: "string" },
  question: { type: "string" },
  "error-budget": { type: "string", default: String(CALIBRATE_DEFAULTS.errorBudget) },
  bias: { type: "boolean", default: false },
  holdout: { type: "string", default: String(CALIBRATE_DEFAULTS.holdout) },
  seed: { type: "string", default: String(CALIBRATE_DEFAULTS.seed) },
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
} as const;

/**
 * Decides from `decisions calibrate`'s arguments what to run: one labelled file, `--policy`, every
 * number in range, `--layout`/`--threads` only with `--model`, `--audit-share`/`--replications`
 * only with `--simulate-budget`, which leaves out `--write`, `--model` and `--bias`. Pure: it reads
 * no file.
 *
 * @throws UsageError for an unknown flag or a missing value, a missing or extra file, no `--policy`,
 *   a number out of range or a flag without the one it needs, checked in that order.
 * @example
 * planCalibrate(["labelled.jsonl", "--policy", "p.yaml", "--simulate-budget", "50"]).mode; // "simulate"
 */
export function planCalibrate(args: readonly string[]): CalibratePlan {
  const { values, positionals } = parseCommandArgs({
    args,
    options: FLAGS,
    allowPositionals: true,
    usage: CALIBRATE_USAGE,
  });
  if (values.help) return { mode: "help" };
  const [labelledPath, ...extra] = positionals;
  if (labelledPath === undefined || extra.length > 0) {
    throw new UsageError("exactly one labelled JSONL file is needed", { usage: CALIBRATE_USAGE });
  }
  if (values.policy === undefined) throw new UsageError("--policy is required", { usage: CALIBRATE_USAGE });
  const errorBudget = fraction("--error-budget", values["error-budget"]);
  const holdout = fraction("--holdout", values.holdout);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${values.seed}`);
  const limit = positiveInteger("--limit", values.limit);
  const threads = positiveInteger("--threads", values.threads);
  const layout = layoutOf(values.layout ?? CALIBRATE_DEFAULTS.layout);
  if (values.model === undefined && (values.layout !== undefined || threads !== undefined)) {
    throw new UsageError(
      `${values.layout !== undefined ? "--layout" : "--threads"} needs --model: without it the recorded distributions are calibrated, in the layout each item was decided in`,
      { usage: CALIBRATE_USAGE },
    );
  }
  const budget = positiveInteger("--simulate-budget", values["simulate-budget"]);
  if (budget === undefined && (values["audit-share"] !== undefined || values.replications !== undefined))
    throw new UsageError("--audit-share and --replications need --simulate-budget", {
      usage: CALIBRATE_USAGE,
    });
  const inputs: CalibrateInputs = {
    labelledPath,
    policyPath: policyFileOf(values.policy),
    question: values.question,
    limit,
    errorBudget,
    seed,
    force: values.force,
  };
  if (budget === undefined) {
    const model = values.model === undefined ? undefined : { path: values.model, layout, threads };
    return {
      mode: "calibrate",
      ...inputs,
      holdout,
      bias: values.bias,
      write: values.write,
      out: values.out,
      model,
    };
  }
  if (values.write || values.model !== undefined || values.bias)
    throw new UsageError("--simulate-budget replays the export: leave out --write, --model and --bias", {
      usage: CALIBRATE_USAGE,
    });
  const auditShare = values["audit-share"] ?? String(CALIBRATE_DEFAULTS.auditShare);
  return { mode: "simulate", ...inputs, budget, auditShare, replications: values.replications };
}

/**
 * The checks of a plan that need its policy, in the order the command makes them: `--question`
 * names one of the policy's questions; `--force` comes with `--write`; with `--model` and
 * `--write`, the layout is the one the policy asks each calibrated question in (a temperature
 * fitted on answers in one layout does not fit another).
 *
 * @throws UsageError saying which check failed and what to do.
 */
export function checkPlanAgainstPolicy(plan: Exclude<CalibratePlan, { mode: "help" }>, policy: Policy): void {
  if (plan.question !== undefined && policy.question(plan.question) === undefined) {
    throw new UsageError(
      `policy ${policy.name} has no question "${plan.question}" (${policy.questions.map((q) => q.id).join(", ")})`,
    );
  }
  const write = plan.mode === "calibrate" && plan.write;
  if (plan.force && !write) throw new UsageError("--force needs --write", { usage: CALIBRATE_USAGE });
  if (plan.mode === "calibrate" && plan.model !== undefined && plan.write) {
    refuseOtherLayout(policy, plan.model.layout, plan.question);
  }
}

/**
 * The options `simulateReviewBudget` is given for a `simulate` plan. `--audit-share` and
 * `--replications` are read here, when a question with audit items is simulated: an export without
 * any ends with "nothing to simulate" whatever they say.
 *
 * @throws UsageError for an `--audit-share` outside (0, 1) or a `--replications` that is not a
 *   positive integer.
 */
export function budgetSimulationOptions(
  plan: Extract<CalibratePlan, { mode: "simulate" }>,
): BudgetSimulationOptions {
  return {
    budget: plan.budget,
    auditShare: fraction("--audit-share", plan.auditShare),
    replications: positiveInteger("--replications", plan.replications) ?? CALIBRATE_DEFAULTS.replications,
    seed: plan.seed,
    errorBudget: plan.errorBudget,
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
    throw new UsageError(`--layout takes ${LAYOUT_CHOICES.join(", ")}; got ${value}`, {
      usage: CALIBRATE_USAGE,
    });
  }
  return value;
}

/** Refuses `--write` with `--model` in a layout the policy does not ask a calibrated question in. */
function refuseOtherLayout(policy: Policy, layout: LayoutChoice, only: string | undefined): void {
  for (const question of policy.questions) {
    if (only !== undefined && question.id !== only) continue;
    const asked = question.layout ?? DEFAULT_LAYOUT;
    if (asked !== layout) {
      throw new UsageError(
        `--write: policy ${policy.name} asks "${question.id}" in layout ${asked}; a temperature fitted on ${layout} answers does not apply to it (set its layout in the policy, or leave out --write to compare)`,
        { usage: CALIBRATE_USAGE },
      );
    }
  }
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new UsageError(`${flag} must be a positive integer, got ${value}`, { usage: CALIBRATE_USAGE });
  }
  return number;
}

function fraction(flag: string, value: string): number {
  const number = Number(value);
  if (!(number > 0 && number < 1))
    throw new UsageError(`${flag} must be a number between 0 and 1, got ${value}`);
  return number;
}
