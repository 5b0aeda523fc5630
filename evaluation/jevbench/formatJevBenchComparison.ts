import { formatPromptVersions, type LayoutChoice } from "../layoutChoices.js";
import type { JevBenchRunInfo } from "./formatJevBenchReport.js";
import type { JevBenchSummary } from "./summarizeJevBench.js";

/** One layout's run in a side-by-side comparison. */
export interface JevBenchLayoutRun {
  layout: LayoutChoice;
  summary: JevBenchSummary;
  /** Its full report (`jevbench.md`), relative to the comparison's folder. */
  report: string;
}

/** The run of a comparison: as a single run's, with every layout in place of one. */
export interface JevBenchComparisonInfo extends Omit<JevBenchRunInfo, "layout"> {
  layouts: readonly LayoutChoice[];
}

/** The headline figures of one layout, as `comparison.json` lists them. */
export interface JevBenchLayoutRow {
  layout: LayoutChoice;
  /** What the engine answered with: `prompt_version` → cases. */
  prompt_versions: Record<string, number>;
  n_planned: number;
  n_valid: number;
  n_correct: number;
  accuracy: number;
  brier_mean: number;
  ece: number;
  p50_ms: number;
  p95_ms: number;
  input_tokens_mean: number | null;
  report: string;
}

/** The headline figures of one layout's run. */
export function jevBenchLayoutRow(run: JevBenchLayoutRun): JevBenchLayoutRow {
  const { summary } = run;
  return {
    layout: run.layout,
    prompt_versions: summary.prompt_versions,
    n_planned: summary.n_planned,
    n_valid: summary.n_valid,
    n_correct: summary.n_correct,
    accuracy: summary.accuracy,
    brier_mean: summary.brier_mean,
    ece: summary.ece.ece,
    p50_ms: summary.latency.p50_ms,
    p95_ms: summary.latency.p95_ms,
    input_tokens_mean: summary.input_tokens_mean,
    report: run.report,
  };
}

/**
 * The same cases in several prompt layouts, side by side as Markdown: per layout the prompt
 * versions answered, validity, accuracy, Brier, ECE, p50/p95 latency and prompt tokens per case,
 * with a link to that layout's full report.
 */
export function formatJevBenchComparison(
  run: JevBenchComparisonInfo,
  runs: readonly JevBenchLayoutRun[],
): string {
  const lines = [
    `# JevBench public cases by prompt layout: ${run.model}`,
    "",
    `Model file ${run.model_file}; files ${run.files.join(", ")}; started ${run.started_at}` +
      `${run.threads === undefined ? "" : `; ${run.threads} threads`}. The same cases in each layout, ` +
      "one layout after another on one loaded model, its cache emptied before each, serially in-process through the engine (System One).",
    ...(run.generated === true
      ? [
          "",
          "**The model is generated with random weights: accuracy and calibration mean nothing; validity and latency do.**",
        ]
      : []),
    "",
    "| layout | prompt_version answered | valid | accuracy | Brier | ECE (10 bins) | p50 | p95 | prompt tokens per case | report |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...runs.map((entry) => {
      const row = jevBenchLayoutRow(entry);
      return (
        `| ${row.layout} | ${formatPromptVersions(row.prompt_versions)} | ${row.n_valid}/${row.n_planned} ` +
        `| ${row.n_correct}/${entry.summary.n_attempted} = ${fixed(row.accuracy)} | ${fixed(row.brier_mean)} ` +
        `| ${fixed(row.ece)} | ${ms(row.p50_ms)} | ${ms(row.p95_ms)} ` +
        `| ${row.input_tokens_mean === null ? "n/a" : row.input_tokens_mean.toFixed(1)} | [${row.layout}](${row.report}) |`
      );
    }),
    "",
  ];
  return `${lines.join("\n")}\n`;
}

function fixed(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : "n/a";
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(0)} ms` : "n/a";
}
