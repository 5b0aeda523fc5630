/**
 * `decisions bench`: measures the engine and the adapter against node-llama-cpp used directly
 * (their floor) and against the standard generation path, side by side in one run.
 */
import { formatReport } from "../../lab/bench/formatReport.js";
import { runBench } from "../../lab/bench/runBench.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand } from "../types.js";

const USAGE = `usage: decisions bench [--quick] [--model <file.gguf>] [--threads N] [--out <dir>] [--no-http] [--no-parallel]
       decisions bench --pipeline [--quick] [--model <file.gguf>] [--threads N] [--out <dir>]
       decisions bench --llama-server [--quick] [--model <file.gguf>] [--threads N] [--out <dir>]
                       [--llama-server-fa auto|on|off] [--llama-server-amx]
       decisions bench --backlog [--items N] [--quick] [--busy N] [--rounds N] [--instances N] [--groups N]
                       [--model <file.gguf>] [--threads N] [--out <dir>]
       decisions bench --job [--lines N] [--batch-size N] [--model <file.gguf>] [--threads N] [--out <dir>]
       decisions bench --lanes [--quick] [--busy N] [--lines N] [--rate R] [--model <file.gguf>] [--threads N] [--out <dir>]

  --quick      fewer repetitions and cases, states up to 1200 tokens (under 5 minutes on 2 cores)
  --model      GGUF to measure (default: the generated qwen3-0.6b-shape, generated once and cached)
  --threads    CPU threads (default: all cores)
  --out        folder for <timestamp>.json and .svg (default: lab/bench/results)
  --no-http    skip the figures measured through the HTTP adapter
  --no-parallel  skip P9 (parallel sequences), e.g. on a CPU other work saturates
  --pipeline   P5 and the grouping gain: the whole local pipeline against the adapter alone
  --llama-server  P7: the adapter (prebuilt, and native when \`decisions build-llama\` made it)
               against llama-server built from the same llama.cpp source (built once into
               .cache/llama-server: ~10 minutes on 2 cores; skipped without cmake and a compiler),
               smoke-tested on a generated model before it is measured
  --llama-server-fa  llama-server's flash attention (default auto: on for these models)
  --llama-server-amx keep ggml's AMX kernels in llama-server on a CPU with AMX (default: left out)
  --backlog    N items (all three policies, shared states and single ones) on the queue at once,
               drained by the whole local pipeline, against the adapter alone on the same items:
               goodput ratio, dead-lettered, lost, not drained, refused share, retries per item
               and each part's CPU seconds, in backlog-<timestamp>.json
  --items N    items of --backlog (default 90 on the 0.6B shape, whose decisions take seconds
               each; 200 with --quick: about 7 minutes on 2 cores shared with other work)
  --busy N     with --backlog: N CPU-bound processes running beside the whole run, started before
               the warm-up and killed at the end (default 0)
  --rounds N   with --backlog: the items in N backlogs, each with the adapter alone beside it; the
               goodput ratio is the median of the rounds' ratios (default 3)
  --instances N, --groups N  with --backlog: decide function instances and MAX_CONCURRENT_GROUPS
               (default: as the CDK app derives them from what the endpoint admits: 2 × 4 for 1 + 8)
  --job        a JSONL object of N lines (20 states in runs of 100 lines, every 50th line not JSON)
               through the local pipeline as a batch job on the generated tiny-qwen3: ingest
               lines/s, drain rate (lines/s), last outcome → results object, peak RSS of ingest
               and of the results writer (each in a process of its own), in job-<timestamp>.json/.svg
  --lines N    lines of --job (default 20000)
  --batch-size N  with --job: records per decide invocation, gathered for up to 1 s (default 100)
  --lanes      both lanes of the local pipeline on the generated tiny-qwen3, in one run: interactive
               items alone at a steady rate, a bulk job alone, then the job again while interactive
               items arrive at that rate: interactive p50/p95/max send→outcome during ÷ alone, bulk
               lines/s during ÷ alone, per lane dead-lettered (DLQ), not ended (no outcome, still
               queued when nothing had moved for 10 minutes), lost (no outcome, in no queue or DLQ),
               duplicated, the goals with pass/fail (exit 1 when one is missed), in
               lanes-<timestamp>.json. Each wait lasts as long as outcomes keep coming. --quick: a
               200-line job and 8 items alone (a few minutes on 2 idle cores); else 1000 lines and
               30 items
  --lines N    with --lanes: lines of the bulk job (default 200 with --quick, else 1000; e.g. 3000)
  --rate R     with --lanes: interactive items per second (default: one per 10 evaluations timed
               at the warm-up, at most 1/s: a tenth of one evaluation slot)
  --busy N     with --lanes as with --backlog
`;

/** The `bench` sub-command. Prints the table; writes the JSON report and the SVG chart. */
export const benchCommand: CliCommand = {
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      options: {
        quick: { type: "boolean", default: false },
        model: { type: "string" },
        threads: { type: "string" },
        out: { type: "string" },
        "no-http": { type: "boolean", default: false },
        pipeline: { type: "boolean", default: false },
        "llama-server": { type: "boolean", default: false },
        "llama-server-fa": { type: "string", default: "auto" },
        "llama-server-amx": { type: "boolean", default: false },
        "no-parallel": { type: "boolean", default: false },
        backlog: { type: "boolean", default: false },
        job: { type: "boolean", default: false },
        lanes: { type: "boolean", default: false },
        rate: { type: "string" },
        lines: { type: "string" },
        "batch-size": { type: "string" },
        items: { type: "string" },
        busy: { type: "string" },
        rounds: { type: "string" },
        instances: { type: "string" },
        groups: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      usage: USAGE,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const threads = values.threads === undefined ? undefined : Number(values.threads);
    if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) {
      throw new UsageError(`--threads must be a positive integer, got ${values.threads}`);
    }
    const modes = [values.pipeline, values["llama-server"], values.backlog, values.job, values.lanes];
    if (modes.filter(Boolean).length > 1) {
      throw new UsageError(
        "--pipeline, --llama-server, --backlog, --job and --lanes are separate runs: give one",
      );
    }
    if (!values.job && values["batch-size"] !== undefined)
      throw new UsageError("--batch-size belongs to --job");
    if (!values.job && !values.lanes && values.lines !== undefined)
      throw new UsageError("--lines belongs to --job and --lanes");
    if (!values.lanes && values.rate !== undefined) throw new UsageError("--rate belongs to --lanes");
    const backlogOnly = [values.items, values.rounds, values.instances, values.groups];
    if (!values.backlog && backlogOnly.some((value) => value !== undefined)) {
      throw new UsageError("--items, --rounds, --instances and --groups belong to --backlog");
    }
    if (!values.backlog && !values.lanes && values.busy !== undefined)
      throw new UsageError("--busy belongs to --backlog and --lanes");
    const separate = {
      quick: values.quick,
      modelPath: values.model,
      threads,
      outDir: values.out,
      env: process.env,
    };
    if (values["llama-server"]) {
      // Loaded only for --llama-server: it builds and starts llama-server.
      const { formatLlamaServerReport, runLlamaServerBench } = await import(
        "../../lab/bench/llamaServer/index.js"
      );
      const flashAttention = values["llama-server-fa"];
      if (flashAttention !== "auto" && flashAttention !== "on" && flashAttention !== "off") {
        throw new UsageError(`--llama-server-fa must be auto, on or off, got "${flashAttention}"`);
      }
      const { report, jsonPath } = await runLlamaServerBench({
        ...separate,
        flashAttention,
        llamaServerAmx: values["llama-server-amx"],
        env: process.env,
      });
      return printed(formatLlamaServerReport(report), jsonPath);
    }
    if (values.backlog) {
      const items = count(values.items, "--items", 1, 1_000_000);
      const busy = count(values.busy, "--busy", 0, 64);
      const rounds = count(values.rounds, "--rounds", 1, 100);
      const instances = count(values.instances, "--instances", 1, 64);
      const groups = count(values.groups, "--groups", 1, 64);
      // Loaded only for --backlog: it starts the whole local stack.
      const { formatBacklogReport, runBacklogBench } = await import("../../lab/bench/backlog/index.js");
      const { report, jsonPath } = await runBacklogBench({
        ...separate,
        ...(items !== undefined ? { items } : {}),
        ...(busy !== undefined ? { busy } : {}),
        ...(rounds !== undefined ? { rounds } : {}),
        ...(instances !== undefined ? { instances } : {}),
        ...(groups !== undefined ? { maxConcurrentGroups: groups } : {}),
      });
      printed(formatBacklogReport(report), jsonPath);
      return report.goal_met ? 0 : 1;
    }
    if (values.lanes) {
      const lines = count(values.lines, "--lines", 1, 1_000_000);
      const busy = count(values.busy, "--busy", 0, 64);
      const rate = values.rate === undefined ? undefined : Number(values.rate);
      if (rate !== undefined && !(Number.isFinite(rate) && rate > 0 && rate <= 100))
        throw new UsageError(
          `--rate must be a number of items per second above 0 and up to 100, got "${values.rate}"`,
        );
      // Loaded only for --lanes: it starts the whole local stack.
      const { formatLanesReport, runLanesBench } = await import("../../lab/bench/lanes/index.js");
      const { report, jsonPath } = await runLanesBench({
        ...separate,
        ...(lines !== undefined ? { lines } : {}),
        ...(busy !== undefined ? { busy } : {}),
        ...(rate !== undefined ? { rate } : {}),
      });
      printed(formatLanesReport(report), jsonPath ?? "(nothing)");
      return report.goals_met ? 0 : 1;
    }
    if (values.job) {
      const lines = count(values.lines, "--lines", 1, 1_000_000);
      const batchSize = count(values["batch-size"], "--batch-size", 1, 10_000);
      // Loaded only for --job: it starts the whole local stack.
      const { formatJobReport, runJobBench } = await import("../../lab/bench/jobs/index.js");
      const { report, jsonPath, svgPath } = await runJobBench({
        env: process.env,
        ...(lines !== undefined ? { lines } : {}),
        ...(batchSize !== undefined ? { batchSize } : {}),
        ...(values.model !== undefined ? { modelPath: values.model } : {}),
        ...(threads !== undefined ? { threads } : {}),
        ...(values.out !== undefined ? { outDir: values.out } : {}),
      });
      process.stdout.write(formatJobReport(report));
      process.stdout.write(`\nwrote ${jsonPath}\nwrote ${svgPath}\n`);
      return 0;
    }
    if (values.pipeline) {
      // Loaded only for --pipeline: it starts the whole local stack.
      const { formatPipelineReport, runPipelineBench } = await import("../../lab/bench/pipeline/index.js");
      const { report, jsonPath } = await runPipelineBench(separate);
      return printed(formatPipelineReport(report), jsonPath);
    }
    const { report, jsonPath, svgPath } = await runBench({
      quick: values.quick,
      modelPath: values.model,
      threads,
      outDir: values.out,
      http: !values["no-http"],
      parallel: !values["no-parallel"],
    });
    process.stdout.write(formatReport(report));
    process.stdout.write(`\nwrote ${jsonPath}\nwrote ${svgPath}\n`);
    return 0;
  },
};

/** Prints a separate run's table and where its JSON went; the exit code. */
function printed(table: string, jsonPath: string): number {
  process.stdout.write(table);
  process.stdout.write(`\nwrote ${jsonPath}\n`);
  return 0;
}

function count(text: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
