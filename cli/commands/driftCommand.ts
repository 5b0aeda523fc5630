/**
 * `decisions drift --policy P [--since T] [--json]`: how far a policy's answers moved — per question
 * the distance between the last window's outcomes and the baseline's (the answer mix and the
 * confidence histogram), whether it is over the alarm threshold, the options that moved, and the
 * options rarely chosen or that reviewers keep replacing (docs/drift.md).
 */
import {
  DEFAULT_DRIFT_OPTIONS,
  type DriftOptions,
  DriftOptionsError,
  DriftRangeError,
  declaredQuestionsOf,
  measurePolicyDrift,
  type OptionFlag,
  type PolicyDriftReport,
  type QuestionDrift,
  resolveDriftOptions,
  rollingWindows,
  windowsSince,
} from "../../core/drift/index.js";
import { OutcomesReader } from "../../core/outcomes/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertText } from "../inertText.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import { readNumberFlag } from "../readNumberFlag.js";
import { readTimeFlag } from "../readTimeFlag.js";
import type { CliCommand, CliOutput } from "../types.js";
import { namedPolicy } from "./namedPolicy.js";
import { openTable, TABLE_OPTION_FLAGS, tableOptionsUsage } from "./tableOptions.js";

const DEFAULT_TABLE = "outcomes";

const USAGE = `usage: decisions drift --policy <p> [--since <time>] [--until <time>] [--json] [drift options] [table options]

Compares the outcomes a policy decided in a window with those of the baseline before it, per question:
the mix of the model's answers and the histogram of its confidence, each as a Jensen–Shannon divergence
in bits (0: the same; 1: nothing in common); the distance is the larger. A question is over the threshold
when its distance is above it and both sides hold at least --min-outcomes answers. Also lists the options
whose share moved, options rarely chosen and options reviewers keep replacing by another (docs/drift.md).

By default the window is the last --window-minutes before now (or --until) and the baseline the
--baseline-windows windows before it, as the drift monitor computes it. --since <time>: the window runs
from that time to now (or --until), the baseline is the --baseline-windows × --window-minutes before it.

--json prints {policy, window, baseline, threshold, distance, over_threshold, outcomes, questions:
[{question, distance, over_threshold, answer_distance, confidence_distance, noise, counts, enough,
answers, moved, confidence, flags}]} on stdout.

drift options:
  --window-minutes <n>     default ${DEFAULT_DRIFT_OPTIONS.windowMinutes}
  --baseline-windows <n>   default ${DEFAULT_DRIFT_OPTIONS.baselineWindows}
  --min-outcomes <n>       default ${DEFAULT_DRIFT_OPTIONS.minOutcomes}
  --threshold <bits>       default ${DEFAULT_DRIFT_OPTIONS.threshold} (the alarm's, knob driftAlarmThreshold)
  --policies <dir>         read the policy's questions and options from this folder (options never chosen
                           are then listed too); default: the options the model's distributions name (the
                           policy's name is looked up in this repository's policies/ either way)

table options:
${tableOptionsUsage({ what: "outcomes", default: DEFAULT_TABLE }, 27).join("\n")}
`;

const FLAGS = {
  ...TABLE_OPTION_FLAGS,
  policy: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  json: { type: "boolean" },
  "window-minutes": { type: "string" },
  "baseline-windows": { type: "string" },
  "min-outcomes": { type: "string" },
  threshold: { type: "string" },
  policies: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Where `decisions drift` writes, and its clock (tests pass their own). */
export interface DriftCommandIo extends CliOutput {
  /** Now, in milliseconds. Default `Date.now`. */
  now: () => number;
}

/** Builds the `decisions drift` command. */
export function createDriftCommand(io: Partial<DriftCommandIo> = {}): CliCommand {
  const stdout = io.stdout ?? process.stdout;
  const now = io.now ?? Date.now;
  return {
    async run(args) {
      const { values, positionals } = parseCommandArgs({ args, options: FLAGS, usage: USAGE });
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      if (positionals.length > 0)
        throw new UsageError("drift takes no positional arguments", { usage: USAGE });
      const policy = values.policy;
      if (policy === undefined || policy === "")
        throw new UsageError("--policy is required", { usage: USAGE });
      const options = optionsOf(values);
      const until = values.until === undefined ? now() : timeOf("--until", values.until);
      let windows: ReturnType<typeof rollingWindows>;
      try {
        windows =
          values.since === undefined
            ? rollingWindows(until, options)
            : windowsSince(timeOf("--since", values.since), until, options);
      } catch (error) {
        if (error instanceof DriftRangeError) throw new UsageError(error.message, { usage: USAGE });
        throw error;
      }
      const loaded = await namedPolicy(policy, values.policies, USAGE);
      const declared = values.policies === undefined ? undefined : declaredQuestionsOf(loaded);
      const { client, tableName } = await openTable(
        values,
        { table: "outcomes", default: DEFAULT_TABLE },
        USAGE,
      );
      try {
        const report = await measurePolicyDrift({
          reader: new OutcomesReader({ client, tableName }),
          policy,
          windows,
          options,
          ...(declared === undefined ? {} : { declared }),
        });
        stdout.write(values.json === true ? `${inertJson(report, 2)}\n` : formatReport(report));
        return 0;
      } finally {
        client.destroy();
      }
    },
  };
}

/** The `decisions drift` command, writing to the process's stdout. */
export const driftCommand: CliCommand = createDriftCommand();

function optionsOf(values: Record<string, unknown>): DriftOptions {
  const number = (flag: string): number | undefined => {
    const text = values[flag];
    if (typeof text !== "string") return undefined;
    // The syntax here, the range of each option in resolveDriftOptions.
    return readNumberFlag(`--${flag}`, text, { min: 0, max: Number.MAX_SAFE_INTEGER }, USAGE);
  };
  const given: Partial<DriftOptions> = {};
  const set = (key: keyof DriftOptions, flag: string) => {
    const value = number(flag);
    if (value !== undefined) given[key] = value;
  };
  set("windowMinutes", "window-minutes");
  set("baselineWindows", "baseline-windows");
  set("minOutcomes", "min-outcomes");
  set("threshold", "threshold");
  try {
    return resolveDriftOptions(given);
  } catch (error) {
    if (error instanceof DriftOptionsError) throw new UsageError(error.message, { usage: USAGE });
    throw error;
  }
}

function timeOf(flag: string, text: string): number {
  return readTimeFlag(flag, text, USAGE).ms;
}

/** The report as a person reads it. */
function formatReport(report: PolicyDriftReport): string {
  const lines = [
    `drift of ${inertText(report.policy)}: window ${report.window.since} – ${report.window.until}, baseline ${report.baseline.since} – ${report.baseline.until}`,
    `threshold ${report.threshold} bits; ${report.outcomes.kept} outcomes decided in these ranges (${report.outcomes.read} read)`,
  ];
  for (const question of report.questions) lines.push("", ...formatQuestion(question));
  if (report.questions.length === 0) lines.push("", "no answered outcomes in these ranges");
  return `${lines.join("\n")}\n`;
}

function formatQuestion(question: QuestionDrift): string[] {
  const bits = (value: number | null) => (value === null ? "–" : value.toFixed(3));
  const verdict = question.over_threshold
    ? "OVER THE THRESHOLD"
    : question.enough
      ? "under the threshold"
      : "too few answers to count";
  const lines = [
    `${inertText(question.question)}: distance ${bits(question.distance)} bits, ${verdict}` +
      ` (answers ${bits(question.answer_distance)}, confidence ${bits(question.confidence_distance)}, noise ≈ ${bits(question.noise)};` +
      ` ${question.counts.window} answers in the window, ${question.counts.baseline} in the baseline)`,
  ];
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  for (const moved of question.moved)
    lines.push(`  moved: ${inertText(moved.option)} ${percent(moved.baseline)} → ${percent(moved.window)}`);
  for (const flag of question.flags) lines.push(`  flag: ${formatFlag(flag, percent)}`);
  return lines;
}

function formatFlag(flag: OptionFlag, percent: (share: number) => string): string {
  return flag.kind === "rare"
    ? `${inertText(flag.option)} is rarely chosen (${percent(flag.share)}, ${flag.count} answers)`
    : `reviewers answered ${inertText(flag.with)} for ${percent(flag.share)} of the ${flag.reviews} reviewed items the model answered ${inertText(flag.option)}`;
}
