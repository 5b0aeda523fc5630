/**
 * `decisions jevbench`: runs the public JevBench cases in-process through the engine, as JevBench
 * defines them, and writes a JSON and a Markdown report with its charts.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { modelNameOf } from "../../adapter/engine/modelNameOf.js";
import { Scorer } from "../../adapter/engine/Scorer.js";
import { ensureGeneratedModel } from "../../adapter/models/generateModel.js";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { JEVBENCH_DIR, loadJevBench } from "../../bench/loadJevBench.js";
import { runJevBench } from "../../evaluation/jevbench/runJevBench.js";
import { summarizeJevBench } from "../../evaluation/jevbench/summarizeJevBench.js";
import type { JevBenchItem } from "../../evaluation/jevbench/types.js";
import { writeJevBenchReport } from "../../evaluation/jevbench/writeJevBenchReport.js";
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

Runs the public JevBench cases (bench/jevbench) serially in-process through the engine and scores
them as JevBench does: valid responses, accuracy (argmax, ties to the alphabetically smallest
label), Brier score, 10-bin ECE, paraphrase consistency, per-family accuracy, p50/p95 latency.

  --model    GGUF to run (default: the generated ${DEFAULT_KIND} model, random weights: only
             validity and latency mean something)
  --files    which files of the public split, comma-separated (default: ${FILES.join(",")})
  --limit    run the first N cases only (default: all)
  --out      folder for jevbench.json, jevbench.md and the charts
             (default: bench/results/jevbench-<timestamp>)
  --threads  CPU threads (default: all cores)
`;

/** Builds the `decisions jevbench` command writing to `stdout` / `stderr` (tests pass their own). */
export function createJevBenchCommand(output: Partial<CliOutput> = {}): CliCommand {
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
      const startedAt = new Date();
      const items: JevBenchItem[] = [];
      for (const file of files) {
        for (const testCase of await loadJevBench(JEVBENCH_DIR, [`${file}.jsonl`]))
          items.push({ ...testCase, file });
      }
      const planned = limit === undefined ? items : items.slice(0, limit);
      const modelPath = values.model ?? (await ensureGeneratedModel(DEFAULT_KIND));
      stderr.write(`jevbench: ${planned.length} cases on ${modelPath}, ${threads} threads\n`);
      const scorer = await Scorer.load({ modelPath, threads, contextSize: CONTEXT_SIZE });
      try {
        const records = await runJevBench(scorer, planned, {
          onRecord: (record, done, total) => {
            if (done % 25 === 0 || done === total) {
              stderr.write(`jevbench: ${done}/${total} cases, last ${record.latency_ms.toFixed(0)} ms\n`);
            }
          },
        });
        const summary = summarizeJevBench(planned, records);
        const outDir =
          values.out ??
          join(
            packageRoot(),
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
        const written = await writeJevBenchReport(outDir, run, summary, records);
        stdout.write(
          [
            `valid ${summary.n_valid}/${summary.n_planned}, accuracy ${summary.n_correct}/${summary.n_attempted}` +
              `, Brier ${summary.brier_mean.toFixed(3)}, ECE ${summary.ece.ece.toFixed(3)}` +
              `, p50 ${summary.latency.p50_ms.toFixed(0)} ms, p95 ${summary.latency.p95_ms.toFixed(0)} ms`,
            `wrote ${written.json}`,
            `wrote ${written.markdown}`,
            "",
          ].join("\n"),
        );
        return 0;
      } finally {
        await scorer.dispose();
      }
    },
  };
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
