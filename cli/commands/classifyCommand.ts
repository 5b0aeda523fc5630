/**
 * `decisions classify <items.jsonl> --policy <name>`: offline batch classification in this process
 * — the pipeline's parsing, grouping, policy and outcome format, with the engine called directly
 * (no HTTP, no queue) — into a resumable JSONL file of outcomes, with progress and a summary.
 */
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, dirname, join } from "node:path";
import { SingleBar } from "cli-progress";
import { AbortedError } from "../../adapter/engine/errors.js";
import { Scorer } from "../../adapter/engine/Scorer.js";
import { loadPolicies } from "../../functions/policy/index.js";
import {
  type ClassifySummary,
  classifyItems,
  InProcessEndpoint,
  ResultsFile,
  readItemLines,
  writeClassifyResults,
} from "../../operations/classify/index.js";
import { defaultPolicyDir, InputFileError, UnknownPolicyError } from "../../operations/common/index.js";
import { DEFAULT_START_KIND } from "../constants.js";
import { ensureServedModel } from "../ensureServedModel.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

/** Usage text of `decisions classify`. */
export function classifyUsage(): string {
  return [
    "usage: decisions classify <items.jsonl> --policy <name> [--model <file.gguf>] [--out <outcomes.jsonl>]",
    "                          [--results <results.jsonl>]",
    "",
    "Decides every work item of a JSONL file in this process, the way the pipeline does (same parsing,",
    "shared-state grouping, prompt, policy rules and outcome format), and appends one outcome per line",
    "to --out. Rerunning skips the items --out already holds, so an interrupted run resumes; a killed",
    "run loses at most the item in flight. Items without a `policy` field get --policy.",
    "Once every item has its outcome it writes the results as a batch job does (one line per input line,",
    "in input order: line, id, policy, status, per question answer and probability, reason) to --results",
    "and a manifest (counts, timings, policy versions, models) beside it (<results>.manifest.json).",
    "",
    "options:",
    "  --policy <name>        the policy to decide with (required)",
    `  --model <file.gguf>    the model (default: a generated ${DEFAULT_START_KIND} with random weights:`,
    "                         the answers are meaningless, the pipeline is real)",
    "  --out <file>           the outcomes (default: <items>.outcomes.jsonl beside the input)",
    "  --results <file>       the results (default: <items>.results.jsonl beside the input); the manifest",
    "                         goes to the same name ending .manifest.json",
    "  --policies <dir>       the policy files (default: this repository's policies/)",
    "  --threads <n>          CPU threads for the engine (default: every core)",
    "  --context-size <n>     the engine's context in tokens: the longest prompt (default 8192)",
    "",
  ].join("\n");
}

/** Builds the `decisions classify` command writing to the given streams (tests pass their own). */
export function createClassifyCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const usage = classifyUsage();
      const { values, positionals } = parseCommandArgs({
        args,
        options: {
          policy: { type: "string" },
          model: { type: "string" },
          out: { type: "string" },
          results: { type: "string" },
          policies: { type: "string" },
          threads: { type: "string" },
          "context-size": { type: "string" },
          help: { type: "boolean", short: "h" },
        },
        allowPositionals: true,
        usage,
      });
      if (values.help === true) {
        stdout.write(usage);
        return 0;
      }
      const [input, ...extra] = positionals;
      if (input === undefined || extra.length > 0)
        throw new UsageError("exactly one items file is needed", { usage });
      const policyName = values.policy;
      if (policyName === undefined || policyName === "")
        throw new UsageError("--policy is required", { usage });
      const threads = readPositive(values.threads, "--threads", availableParallelism(), usage);
      const contextSize = readPositive(values["context-size"], "--context-size", 8192, usage);
      const base = join(dirname(input), basename(input).replace(/\.jsonl?$/i, ""));
      const out = values.out ?? `${base}.outcomes.jsonl`;
      const resultsPath = values.results ?? `${base}.results.jsonl`;
      const manifestPath = `${resultsPath.replace(/(\.results)?\.jsonl?$/i, "")}.manifest.json`;
      if ([out, input].includes(resultsPath) || [out, input, resultsPath].includes(manifestPath))
        throw new UsageError("--results must name a file other than the input and --out", { usage });

      const policyDir = values.policies ?? defaultPolicyDir();
      const policies = await loadPolicies(policyDir);
      const policy = policies.get(policyName);
      if (policy === undefined) throw new UnknownPolicyError(policyName, policyDir, policies.names());
      // Bytes: readItemLines decodes each line strictly (a line that is not UTF-8 is rejected).
      const bytes = await readFile(input).catch((error: NodeJS.ErrnoException) => {
        throw new InputFileError(
          input,
          error.code === "ENOENT" ? "no such file" : `cannot be read (${error.code})`,
          {
            cause: error,
          },
        );
      });
      const items = readItemLines(bytes, policyName);
      let modelPath = values.model;
      if (modelPath === undefined) {
        stderr.write(
          `no --model: using the generated ${DEFAULT_START_KIND} model; its weights are random, so the answers are meaningless (the pipeline is real)\n`,
        );
        modelPath = await ensureServedModel(DEFAULT_START_KIND, stderr);
      }

      const { file, resume } = await ResultsFile.open(out);
      const abort = new AbortController();
      const onSignal = (): void => abort.abort(new AbortedError("interrupted"));
      process.once("SIGINT", onSignal);
      const bar = new SingleBar({
        stream: stderr as NodeJS.WritableStream,
        noTTYOutput: true,
        notTTYSchedule: 5000,
        format:
          "classify [{bar}] {percentage}% | {value}/{total} items | {rate} items/s | ETA {eta_formatted}",
        hideCursor: stderr.isTTY === true,
      });
      const started = performance.now();
      const startedAt = new Date();
      let summary: ClassifySummary | undefined;
      try {
        if (resume.truncatedBytes > 0) {
          stderr.write(
            `${out}: cut off an unfinished last line (${resume.truncatedBytes} bytes) of an interrupted run\n`,
          );
        }
        if (resume.lines > 0) stderr.write(`${out}: resuming, ${resume.lines} outcome(s) already there\n`);
        const engine = await Scorer.load({ modelPath, threads, contextSize });
        try {
          const endpoint = new InProcessEndpoint({ engine });
          let barStarted = false;
          summary = await classifyItems({
            items,
            policy,
            policies,
            endpoint,
            results: file,
            resume,
            signal: abort.signal,
            onProgress: ({ done, total, skipped }) => {
              if (!barStarted) {
                barStarted = true;
                bar.start(total, 0, { rate: "0.0" });
              }
              // The rate counts the items this run decided, not those skipped.
              const seconds = (performance.now() - started) / 1000;
              bar.update(done, { rate: ((done - skipped) / Math.max(seconds, 1e-3)).toFixed(1) });
            },
          });
        } finally {
          await engine.dispose();
        }
      } catch (error) {
        if (!abort.signal.aborted) throw error;
        bar.stop();
        stderr.write(
          `interrupted: the outcomes so far are in ${out}; run the same command again to resume\n`,
        );
        return 130;
      } finally {
        bar.stop();
        process.removeListener("SIGINT", onSignal);
        await file.close();
      }
      const manifest = await writeClassifyResults({
        input,
        lines: items.map((item) => (item.origin.kind === "file" ? item.origin.line : 0)),
        keys: summary.keys,
        outcomes: out,
        results: resultsPath,
        manifest: manifestPath,
        startedAt,
      });
      stdout.write(describeSummary(summary, policyName, out, (performance.now() - started) / 1000));
      stdout.write(
        `results: ${resultsPath} (${manifest.result_lines} line(s), ${manifest.status}); manifest: ${manifestPath}\n`,
      );
      return 0;
    },
  };
}

/** The `decisions classify` command, writing to the process's stdout and stderr. */
export const classifyCommand: CliCommand = createClassifyCommand();

function describeSummary(summary: ClassifySummary, policy: string, out: string, seconds: number): string {
  const written = Object.values(summary.written).reduce((sum, count) => sum + (count ?? 0), 0);
  const byStatus = Object.entries(summary.written)
    .map(([status, count]) => `${status} ${count}`)
    .join(", ");
  return [
    `classified ${written} item(s) with policy ${policy} in ${seconds.toFixed(1)} s (${(written / Math.max(seconds, 1e-3)).toFixed(1)} items/s)${byStatus ? `: ${byStatus}` : ""}`,
    `${summary.total} item(s) in the input; ${summary.skipped} already in the results; ${summary.groups} shared-state group(s), ${summary.requests} engine call(s) this run`,
    ...(summary.repeated.length > 0
      ? [
          `${summary.repeated.length} line(s) repeat an id of the input (the first line's outcome stands, the repeats were not decided): ${summary.repeated.slice(0, 20).join(", ")}${summary.repeated.length > 20 ? ", …" : ""}`,
        ]
      : []),
    `outcomes: ${out}`,
    "",
  ].join("\n");
}

function readPositive(text: string | undefined, flag: string, fallback: number, usage: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1)
    throw new UsageError(`${flag} must be a positive integer, got "${text}"`, { usage });
  return value;
}
