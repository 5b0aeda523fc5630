import { formatPromptVersions, type LayoutChoice } from "../layoutChoices.js";
import type { JevBenchMetrics, JevBenchSummary } from "./summarizeJevBench.js";

/** File names of the report's charts, relative to its folder. */
export const JEVBENCH_CHART_FILES = { reliability: "reliability.svg", coverage: "coverage.svg" } as const;

/** What the report says about the run besides the summary. */
export interface JevBenchRunInfo {
  /** The model's name (as System One reports it) and file. */
  model: string;
  model_file: string;
  /** Set for a generated model: its weights are random, so accuracy means nothing. */
  generated?: boolean;
  files: readonly string[];
  /** The prompt layout every case was asked in (`--layout`); `direct-options-v1` by default. */
  layout: LayoutChoice;
  started_at: string;
  threads?: number;
}

/**
 * The JevBench report as Markdown: the layout asked for and the prompt versions answered,
 * headline figures, per file and per family tables, paraphrase consistency, latency, and links to the reliability diagram and coverage/error curve.
 */
export function formatJevBenchReport(summary: JevBenchSummary, run: JevBenchRunInfo): string {
  const paraphrase = summary.paraphrase_consistency;
  const lines = [
    `# JevBench public cases: ${run.model}`,
    "",
    `Model file ${run.model_file}; files ${run.files.join(", ")}; layout ${run.layout}; started ${run.started_at}` +
      `${run.threads === undefined ? "" : `; ${run.threads} threads`}. Cases run serially in-process through the engine (System One).`,
    ...(run.generated === true
      ? [
          "",
          "**The model is generated with random weights: accuracy and calibration mean nothing; validity and latency do.**",
        ]
      : []),
    "",
    "| metric | value |",
    "|---|---|",
    `| valid responses | ${summary.n_valid}/${summary.n_planned} |`,
    `| accuracy (argmax, ties to the alphabetically smallest label) | ${summary.n_correct}/${summary.n_attempted} = ${fixed(summary.accuracy)} |`,
    `| macro accuracy over families | ${fixed(summary.macro_accuracy)} |`,
    `| Brier score (multi-class, mean) | ${fixed(summary.brier_mean)} |`,
    `| ECE (10 bins, top label) | ${fixed(summary.ece.ece)} |`,
    `| ordinal MAE (score cases) | ${summary.ordinal_mae === null ? "n/a" : fixed(summary.ordinal_mae)} |`,
    `| paraphrase consistency | ${paraphrase.agreement === null ? "n/a" : `${paraphrase.agree}/${paraphrase.both_valid} = ${fixed(paraphrase.agreement)}`} (${paraphrase.pairs} pairs) |`,
    `| latency p50 / p95 (serial) | ${ms(summary.latency.p50_ms)} / ${ms(summary.latency.p95_ms)} |`,
    `| prompt tokens per case (mean) | ${summary.input_tokens_mean === null ? "n/a" : summary.input_tokens_mean.toFixed(1)} |`,
    `| prompt_version answered | ${formatPromptVersions(summary.prompt_versions)} |`,
    "",
    "## Per file",
    "",
    ...table(summary.per_file),
    "",
    "## Per family",
    "",
    ...table(summary.per_family),
    "",
    "## Charts",
    "",
    `- [Reliability diagram](${JEVBENCH_CHART_FILES.reliability})`,
    `- [Coverage/error curve](${JEVBENCH_CHART_FILES.coverage})`,
    "",
  ];
  return `${lines.join("\n")}\n`;
}

function table(rows: Record<string, JevBenchMetrics>): string[] {
  return [
    "| name | cases | valid | correct | accuracy | Brier | ECE |",
    "|---|---|---|---|---|---|---|",
    ...Object.entries(rows).map(
      ([name, m]) =>
        `| ${name} | ${m.n_planned} | ${m.n_valid} | ${m.n_correct} | ${fixed(m.accuracy)} | ${fixed(m.brier_mean)} | ${fixed(m.ece.ece)} |`,
    ),
  ];
}

function fixed(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : "n/a";
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(0)} ms` : "n/a";
}
