/**
 * What `decisions bench` is asked to do, decided from its flags alone: which run (mode) and the
 * options that run is given. Nothing is loaded or started here; `benchCommand` does the run.
 */
import type { BacklogBenchOptions } from "../../lab/bench/backlog/index.js";
import type { JobBenchOptions } from "../../lab/bench/jobs/index.js";
import type { LanesBenchOptions } from "../../lab/bench/lanes/index.js";
import type { LlamaServerBenchOptions } from "../../lab/bench/llamaServer/index.js";
import type { PipelineBenchOptions } from "../../lab/bench/pipeline/index.js";
import type { BenchOptions } from "../../lab/bench/runBench.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";

/** The usage text of `decisions bench`: printed by `--help`, carried by a flag the parser refuses. */
export const BENCH_USAGE = `usage: decisions bench [--quick] [--model <file.gguf>] [--threads N] [--out <dir>] [--no-http] [--no-parallel]
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

/** A run's options as the plan gives them: all but the environment, which the entry point adds. */
export type PlannedOptions<T> = Omit<T, "env">;

/**
 * What {@link planBench} decided: print the usage, or one run (`mode`) with the options its run
 * function is given (`runPipelineBench`, `runLlamaServerBench`, `runBacklogBench`, `runLanesBench`,
 * `runJobBench`, `runBench` for `adapter`), less the environment. A flag left out is left out of
 * the options (or present as `undefined`, as each run has always been given it), so the run's own
 * default applies.
 */
export type BenchPlan =
  | { readonly mode: "help" }
  | { readonly mode: "pipeline"; readonly options: PlannedOptions<PipelineBenchOptions> }
  | { readonly mode: "llama-server"; readonly options: PlannedOptions<LlamaServerBenchOptions> }
  | { readonly mode: "backlog"; readonly options: PlannedOptions<BacklogBenchOptions> }
  | { readonly mode: "lanes"; readonly options: PlannedOptions<LanesBenchOptions> }
  | { readonly mode: "job"; readonly options: PlannedOptions<JobBenchOptions> }
  | { readonly mode: "adapter"; readonly options: BenchOptions };

/**
 * Decides from `decisions bench`'s arguments what to run: reads the flags, checks that each
 * belongs to the mode given (at most one of `--pipeline`, `--llama-server`, `--backlog`, `--job`,
 * `--lanes`; none is the adapter bench) and that every number is in range. Pure: it loads no
 * bench module and reads no environment.
 *
 * @throws UsageError for an unknown flag or a missing value (carrying {@link BENCH_USAGE}), two
 *   modes at once, a flag of another mode, or a number out of range (saying which and the range).
 * @example
 * planBench(["--job", "--lines", "10"]); // { mode: "job", options: { lines: 10 } }
 */
export function planBench(args: readonly string[]): BenchPlan {
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
    usage: BENCH_USAGE,
  });
  if (values.help) return { mode: "help" };
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
  // The options every separate run (all but --job and the adapter bench) is given.
  const separate = { quick: values.quick, modelPath: values.model, threads, outDir: values.out };
  if (values["llama-server"]) {
    const flashAttention = values["llama-server-fa"];
    if (flashAttention !== "auto" && flashAttention !== "on" && flashAttention !== "off") {
      throw new UsageError(`--llama-server-fa must be auto, on or off, got "${flashAttention}"`);
    }
    return {
      mode: "llama-server",
      options: { ...separate, flashAttention, llamaServerAmx: values["llama-server-amx"] },
    };
  }
  if (values.backlog) {
    const items = count(values.items, "--items", 1, 1_000_000);
    const busy = count(values.busy, "--busy", 0, 64);
    const rounds = count(values.rounds, "--rounds", 1, 100);
    const instances = count(values.instances, "--instances", 1, 64);
    const groups = count(values.groups, "--groups", 1, 64);
    return {
      mode: "backlog",
      options: {
        ...separate,
        ...(items !== undefined ? { items } : {}),
        ...(busy !== undefined ? { busy } : {}),
        ...(rounds !== undefined ? { rounds } : {}),
        ...(instances !== undefined ? { instances } : {}),
        ...(groups !== undefined ? { maxConcurrentGroups: groups } : {}),
      },
    };
  }
  if (values.lanes) {
    const lines = count(values.lines, "--lines", 1, 1_000_000);
    const busy = count(values.busy, "--busy", 0, 64);
    const rate = values.rate === undefined ? undefined : Number(values.rate);
    if (rate !== undefined && !(Number.isFinite(rate) && rate > 0 && rate <= 100))
      throw new UsageError(
        `--rate must be a number of items per second above 0 and up to 100, got "${values.rate}"`,
      );
    return {
      mode: "lanes",
      options: {
        ...separate,
        ...(lines !== undefined ? { lines } : {}),
        ...(busy !== undefined ? { busy } : {}),
        ...(rate !== undefined ? { rate } : {}),
      },
    };
  }
  if (values.job) {
    const lines = count(values.lines, "--lines", 1, 1_000_000);
    const batchSize = count(values["batch-size"], "--batch-size", 1, 10_000);
    // --job has no --quick, and gives its run only the flags that were given.
    return {
      mode: "job",
      options: {
        ...(lines !== undefined ? { lines } : {}),
        ...(batchSize !== undefined ? { batchSize } : {}),
        ...(values.model !== undefined ? { modelPath: values.model } : {}),
        ...(threads !== undefined ? { threads } : {}),
        ...(values.out !== undefined ? { outDir: values.out } : {}),
      },
    };
  }
  if (values.pipeline) return { mode: "pipeline", options: separate };
  return {
    mode: "adapter",
    options: { ...separate, http: !values["no-http"], parallel: !values["no-parallel"] },
  };
}

/** A whole number from `min` to `max` given as `flag`, or undefined when the flag was not given. */
function count(text: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
