/**
 * `decisions jevbench`: runs the public JevBench cases in-process through the engine, as JevBench
 * defines them, and writes a JSON and a Markdown report with its charts.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { modelNameOf } from "../../adapter/engine/model/modelNameOf.js";
import { Scorer, type ScorerOptions } from "../../adapter/engine/Scorer.js";
import { ensureGeneratedModel } from "../../adapter/models/generateModel.js";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import type { JevBenchLayoutRun } from "../../evaluation/jevbench/formatJevBenchComparison.js";
import { JEVBENCH_DIR, loadJevBench } from "../../evaluation/jevbench/loadJevBench.js";
import { runJevBench } from "../../evaluation/jevbench/runJevBench.js";
import { type JevBenchSummary, summarizeJevBench } from "../../evaluation/jevbench/summarizeJevBench.js";
import type { JevBenchItem, JevBenchRecord } from "../../evaluation/jevbench/types.js";
import { writeJevBenchComparison } from "../../evaluation/jevbench/writeJevBenchComparison.js";
import { writeJevBenchReport } from "../../evaluation/jevbench/writeJevBenchReport.js";
import {
  DEFAULT_LAYOUT,
  isLayoutChoice,
  LAYOUT_CHOICES,
  type LayoutChoice,
} from "../../evaluation/layoutChoices.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

/** The files of the public split, in the order they run. */
const FILES = ["easy", "original", "hard"] as const;

/** The generated model run without `--model` (the one the engine tests answer all 231 cases on). */
const DEFAULT_KIND = "tiny-qwen3";

/** The context size the cases run with: the longest public case (~15k characters) fits. */
const CONTEXT_SIZE = 8192;

const USAGE = `usage: decisions jevbench [--model <file.gguf>] [--files ${FILES.join(",")}] [--limit N] [--out <dir>] [--threads N]
         [--layout ${LAYOUT_CHOICES.join("|")}[,…]]

Runs the public JevBench cases (evaluation/jevbench/cases) serially in-process through the engine and scores
them as JevBench does: valid responses, accuracy (argmax, ties to the alphabetically smallest
label), Brier score, 10-bin ECE, paraphrase consistency, per-family accuracy, p50/p95 latency.

  --model    GGUF to run (default: the generated ${DEFAULT_KIND} model, random weights: only
             validity and latency mean something)
  --files    which files of the public split, comma-separated (default: ${FILES.join(",")})
  --limit    run the first N cases only (default: all)
  --out      folder for jevbench.json, jevbench.md and the charts
             (default: lab/bench/results/jevbench-<timestamp>)
  --threads  CPU threads (default: all cores)
  --layout   prompt layout every case is asked in, one of
             ${LAYOUT_CHOICES.join(", ")} (auto: the engine picks the cheaper
             per case) (default: ${DEFAULT_LAYOUT}). Several, comma-separated, run the same cases
             in each, one after another (each from an empty cache), side by side: each layout's
             report in <out>/<layout>/, comparison.json and comparison.md in <out>
`;

/** Test-only settings of {@link createJevBenchCommand}; the CLI passes none. */
export interface JevBenchCommandTestOptions {
  /**
   * A llama.cpp binding and the model already loaded from the file the run will use (`--model`, or
   * the generated default), so that a test running the command several times loads them once. Each
   * run still creates its own scorer (its context and cache) and disposes it; these are not disposed.
   */
  loaded?: Pick<ScorerOptions, "llama" | "model">;
}

/** Builds the `decisions jevbench` command writing to `stdout` / `stderr` (tests pass their own). */
export function createJevBenchCommand(
  output: Partial<CliOutput> = {},
  testOptions: JevBenchCommandTestOptions = {},
): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values } = parseCommandArgs({
        args,
        options: {
          model: { type: "string" },
          files: { type: "string", default: FILES.join(",") },
          limit: { type: "string" },
          out: { type: "string" },
          threads: { type: "string" },
          layout: { type: "string", default: DEFAULT_LAYOUT },
          help: { type: "boolean", short: "h", default: false },
        },
        usage: USAGE,
      });
      if (values.help) {
        stdout.write(USAGE);
        return 0;
      }
      const files = values.files.split(",").map((name) => name.trim().replace(/\.jsonl$/, ""));
      const unknown = files.filter((name) => !(FILES as readonly string[]).includes(name));
      if (unknown.length > 0 || files.length === 0) {
        throw new UsageError(`--files takes ${FILES.join(", ")}; got ${values.files}`, { usage: USAGE });
      }
      const limit = positiveInteger("--limit", values.limit);
      const threads = positiveInteger("--threads", values.threads) ?? availableParallelism();
      const layouts = layoutsOf(values.layout);
      const startedAt = new Date();
      const items: JevBenchItem[] = [];
      for (const file of files) {
        for (const testCase of await loadJevBench(JEVBENCH_DIR, [`${file}.jsonl`]))
          items.push({ ...testCase, file });
      }
      const planned = limit === undefined ? items : items.slice(0, limit);
      const modelPath = values.model ?? (await ensureGeneratedModel(DEFAULT_KIND));
      stderr.write(
        `jevbench: ${planned.length} cases on ${modelPath}, ${threads} threads, layout ${layouts.join(", ")}\n`,
      );
      const scorer = await Scorer.load({
        ...testOptions.loaded,
        modelPath,
        threads,
        contextSize: CONTEXT_SIZE,
      });
      try {
        const runs: (JevBenchLayoutRun & { records: JevBenchRecord[] })[] = [];
        for (const [index, layout] of layouts.entries()) {
          // Each layout starts cold: one whose prompts an earlier layout already evaluated (auto
          // choosing question-first-v1) would otherwise find them cached and look faster.
          if (index > 0) await scorer.clearCache();
          const records = await runJevBench(scorer, planned, {
            layout,
            onRecord: (record, done, total) => {
              if (done % 25 === 0 || done === total) {
                stderr.write(
                  `jevbench: ${layout}: ${done}/${total} cases, last ${record.latency_ms.toFixed(0)} ms\n`,
                );
              }
            },
          });
          const single = layouts.length === 1;
          runs.push({
            layout,
            summary: summarizeJevBench(planned, records),
            records,
            report: single ? "jevbench.md" : `${layout}/jevbench.md`,
          });
        }
        const outDir =
          values.out ??
          join(
            packageRoot(),
            "lab",
            "bench",
            "results",
            `jevbench-${startedAt.toISOString().replace(/[:.]/g, "-")}`,
          );
        const run = {
          model: modelNameOf(scorer.identity),
          model_file: modelPath,
          generated: values.model === undefined,
          files,
          started_at: startedAt.toISOString(),
          threads,
        };
        const lines: string[] = [];
        if (runs.length === 1 && runs[0] !== undefined) {
          const { layout, summary, records } = runs[0];
          const written = await writeJevBenchReport(outDir, { ...run, layout }, summary, records);
          lines.push(
            `${headline(summary)}, layout ${layout}`,
            `wrote ${written.json}`,
            `wrote ${written.markdown}`,
          );
        } else {
          for (const { layout, summary, records } of runs) {
            const written = await writeJevBenchReport(
              join(outDir, layout),
              { ...run, layout },
              summary,
              records,
            );
            lines.push(`${layout}: ${headline(summary)}`, `wrote ${written.json}`);
          }
          const comparison = await writeJevBenchComparison(outDir, { ...run, layouts }, runs);
          lines.push(`wrote ${comparison.json}`, `wrote ${comparison.markdown}`);
        }
        stdout.write(`${lines.join("\n")}\n`);
        return 0;
      } finally {
        await scorer.dispose();
      }
    },
  };
}

/** The figures printed for a run: validity, accuracy, Brier, ECE, latency. */
function headline(summary: JevBenchSummary): string {
  return (
    `valid ${summary.n_valid}/${summary.n_planned}, accuracy ${summary.n_correct}/${summary.n_attempted}` +
    `, Brier ${summary.brier_mean.toFixed(3)}, ECE ${summary.ece.ece.toFixed(3)}` +
    `, p50 ${summary.latency.p50_ms.toFixed(0)} ms, p95 ${summary.latency.p95_ms.toFixed(0)} ms`
  );
}

/** `--layout`: one layout, or several comma-separated, each once. */
function layoutsOf(value: string): LayoutChoice[] {
  const names = value.split(",").map((name) => name.trim());
  const layouts = names.filter(isLayoutChoice);
  if (layouts.length !== names.length || new Set(layouts).size !== layouts.length) {
    throw new UsageError(
      `--layout takes ${LAYOUT_CHOICES.join(", ")}, or several of them comma-separated, each once; got ${value}`,
      { usage: USAGE },
    );
  }
  return layouts;
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new UsageError(`${flag} must be a positive integer, got ${value}`, { usage: USAGE });
  }
  return number;
}

/** The `decisions jevbench` command, writing to the process's stdout and stderr. */
export const jevbenchCommand: CliCommand = createJevBenchCommand();
