import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { loadPolicies } from "../../../core/policy/index.js";
import { createLocalDecideHandler, type StackHandlerContext, startLocalStack } from "../../../local/index.js";
// By their files: the chaos index also holds the chaos run, which the bench does not need.
import { FaultProxy, type ProxyExchange } from "../../chaos/FaultProxy.js";
import { loadWorkItemTemplates } from "../../chaos/loadWorkItemTemplates.js";
import type { Figure } from "../BenchContext.js";
import { describeMachine } from "../describeMachine.js";
import { buildTicketStream, type StreamItem } from "./buildTicketStream.js";
import { type AdapterAloneRun, invoke, measureAdapterAlone } from "./measureAdapterAlone.js";
import { measureCpu } from "./measureCpu.js";
import { type PipelinePhase, runPipelinePhase } from "./runPipelinePhase.js";

/** Options of {@link runPipelineBench}. */
export interface PipelineBenchOptions {
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** A smaller run on the generated tiny-qwen3 model (a minute or two on 2 cores). Default false. */
  quick?: boolean;
  /** GGUF to serve. Default: the generated qwen3-0.6b-shape (tiny-qwen3 with `quick`), generated once and cached. */
  modelPath?: string;
  /** llama.cpp threads of the adapter. Default: the adapter's (the cores it may use). */
  threads?: number;
  /** Where the JSON goes. Default: `lab/bench/results`. */
  outDir?: string;
  /**
   * Items of each measurement, to replace some of the run's own (`quick` or full): a smaller run
   * for a test of the report's shape. Default: the run's sizes.
   */
  sizes?: Partial<Pick<PipelineBenchSizes, "p5" | "grouping" | "overhead">>;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** Items of each measurement of {@link runPipelineBench}. */
export interface PipelineBenchSizes {
  /** Items of P5 (the adapter alone, then through the pipeline, then alone again). */
  p5: number;
  /** Tickets of the grouping measurement (35 % duplicates). */
  grouping: number;
  /** Batches of the overhead measurement at each batch size. */
  overhead: number;
  batchSizes: readonly number[];
}

/** One row of the overhead table: the pipeline's own time per item at one batch size. */
export interface OverheadRow {
  batch_size: number;
  items: number;
  wall_ms: number;
  adapter_ms: number;
  /** (wall − adapter) ÷ items, with one batch and one request at a time. */
  overhead_ms_per_item: number;
}

/** Everything one pipeline bench run measured; written as `lab/bench/results/pipeline-<timestamp>.json`. */
export interface PipelineBenchReport {
  command: string;
  started_at: string;
  duration_s: number;
  quick: boolean;
  machine: {
    cpu: string;
    cores: number;
    memory_gib: number;
    node: string;
    /** `os.loadavg()` (1, 5, 15 min) when the run started and when it ended: other work on the cores. */
    load_average_start: number[];
    load_average_end: number[];
  };
  model: string;
  /** Pipeline decisions/s ÷ the adapter's alone on the same items at saturation. */
  P5: Figure;
  grouping: {
    items: number;
    distinct_states: number;
    /** Prompt tokens per item through the pipeline (a group's state counted once per request). */
    pipeline_tokens_per_item: number;
    /** Prompt tokens per item with one question per request. */
    one_question_tokens_per_item: number;
    /** pipeline ÷ one question per request. */
    ratio: number;
    /** The ratio if every distinct state were evaluated once for all its items and questions. */
    token_count_limit: number;
    /** 1 ÷ ratio. */
    gain: number;
  };
  overhead: OverheadRow[];
  /**
   * Where the cores went during P5's first adapter-alone run and its pipeline run: CPU seconds per
   * process (null without /proc), and the wall time. The emulators share the machine's cores with
   * the adapter here, which a deployment does not.
   */
  cpu_seconds: { adapter_alone: Record<string, number | null>; pipeline: Record<string, number | null> };
}

const POLICY = "ticket-routing";
const SIZES: Record<"quick" | "full", PipelineBenchSizes> = {
  quick: { p5: 24, grouping: 24, overhead: 8, batchSizes: [1, 5, 10] },
  full: { p5: 12, grouping: 15, overhead: 2, batchSizes: [1, 5, 10] },
};
const PIPELINE_MAPPING = { batchSize: 10, maximumBatchingWindowMs: 500, maximumConcurrency: 2 } as const;
/** Clients of the adapter-alone run: enough that the engine always has the next request waiting. */
const ADAPTER_CLIENTS = 4;

/**
 * `decisions bench --pipeline`: the local pipeline (fauxqs → poller → decide handler → gateway →
 * adapter → DynamoDB Local) side by side with the adapter alone, on one adapter process with its
 * cross-request state cache off (`--cache-max-bytes 0`, so neither side profits from the other's
 * work). Measures P5 (pipeline decisions/s ÷ the adapter's at saturation on the same items), the
 * grouping gain on a ticket-routing stream with duplicates (prompt tokens per item against one
 * question per request, and the limit the token counts allow), and the pipeline's own time per
 * item outside the model at batch sizes 1, 5 and 10. Writes the JSON report.
 */
export async function runPipelineBench(
  options: PipelineBenchOptions,
): Promise<{ report: PipelineBenchReport; jsonPath: string }> {
  const startedAt = new Date();
  const loadStart = loadavg();
  const quick = options.quick ?? false;
  const sizes: PipelineBenchSizes = { ...(quick ? SIZES.quick : SIZES.full), ...options.sizes };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const modelPath =
    options.modelPath ?? (await ensureGeneratedModel(quick ? "tiny-qwen3" : "qwen3-0.6b-shape"));
  const root = packageRoot();
  const policies = await loadPolicies(join(root, "policies"));
  const policy = policies.get(POLICY);
  if (policy === undefined) throw new Error(`the ${POLICY} policy is missing`);
  const templates = (await loadWorkItemTemplates(join(root, "events"), policies)).filter(
    (template) => template.policy === POLICY,
  );
  log(
    `bench --pipeline: model ${modelPath}, ${quick ? "quick" : "full"} run, load average ${fmt(loadStart)}`,
  );

  let context: StackHandlerContext | undefined;
  const stack = await startLocalStack({
    env: options.env,
    model: modelPath,
    adapterThreads: options.threads,
    // A queued request of the 0.6B shape can wait past SageMaker's 60 s on 2 cores; the bench measures
    // throughput, not that timeout (as the engine bench does).
    adapterArgs: ["--cache-max-bytes", "0", "--request-timeout-ms", "600000"],
    log,
    // This poller is stopped below: with a 1 s long poll the stop waits at most 1 s for its receive, which then cannot take what is sent later.
    poller: { waitTimeSeconds: 1 },
    createHandler: (handlerContext) => {
      context = handlerContext;
      return async () => {
        throw new Error("the bench runs its own pollers");
      };
    },
  });
  const exchanges: ProxyExchange[] = [];
  let proxy: FaultProxy | undefined;
  try {
    await stack.poller.stop();
    if (context === undefined) throw new Error("the stack built no handler context");
    proxy = await FaultProxy.start({
      target: stack.adapterUrl,
      random: new SeededRandom(1),
      onExchange: (exchange) => exchanges.push(exchange),
    });
    stack.gateway.setEndpoint(stack.endpointName, proxy.url);
    const concurrent = await createLocalDecideHandler(context);
    const serial = await createLocalDecideHandler(context, { environment: { MAX_CONCURRENT_GROUPS: "1" } });
    const stream = (count: number, idPrefix: string, duplicateShare = 0, seed = 1): StreamItem[] =>
      buildTicketStream({ templates, count, duplicateShare, random: new SeededRandom(seed), idPrefix });

    log("warming up (the first requests page the weights in)");
    await measureAdapterAlone(
      stack.adapterUrl,
      policy,
      stream(ADAPTER_CLIENTS, "warm", 0, 3),
      ADAPTER_CLIENTS,
    );

    // The same states on every side (ids differ), so the adapter does the same work; the adapter
    // alone runs before and after the pipeline and their mean is the baseline, so a drift of the
    // machine's load over the run weighs on both sides alike.
    log(`P5: the adapter alone on ${sizes.p5} items, ${ADAPTER_CLIENTS} clients`);
    const items = stream(sizes.p5, "p5");
    const parts = { adapter: stack.adapter.pid, "DynamoDB Local": stack.dynamodb.pid };
    const aloneMeasured = await measureCpu(parts, () =>
      measureAdapterAlone(stack.adapterUrl, policy, items, ADAPTER_CLIENTS),
    );
    const aloneBefore = aloneMeasured.value;
    log("P5: the same items through the pipeline");
    const pipedMeasured = await measureCpu(parts, () =>
      runPipelinePhase(stack, concurrent, PIPELINE_MAPPING, stream(sizes.p5, "p5-pipeline"), exchanges),
    );
    const piped = pipedMeasured.value;
    log("P5: the adapter alone again");
    const aloneAfter = await measureAdapterAlone(stack.adapterUrl, policy, items, ADAPTER_CLIENTS);
    const alone = [aloneBefore, aloneAfter];
    const p5 = piped.decisions_per_s / ((aloneBefore.decisions_per_s + aloneAfter.decisions_per_s) / 2);

    log(`grouping: ${sizes.grouping} tickets with duplicates through the pipeline`);
    const grouped = stream(sizes.grouping, "grouping", 0.35, 2);
    const groupedRun = await runPipelinePhase(stack, concurrent, PIPELINE_MAPPING, grouped, exchanges);
    log("grouping: the same items, one question per request");
    let oneQuestionTokens = 0;
    for (const item of grouped) {
      for (const [qid, question] of Object.entries(policy.systemOneQuestions())) {
        oneQuestionTokens += await invoke(
          stack.adapterUrl,
          `{"state": ${item.stateText}, "questions": ${JSON.stringify({ [qid]: question })}}`,
        );
      }
    }
    const distinctTokens = [...groupedRun.tokensByState.values()].reduce((a, b) => a + b, 0);

    const overhead: OverheadRow[] = [];
    for (const batchSize of sizes.batchSizes) {
      log(
        `overhead: batch size ${batchSize}, ${sizes.overhead * batchSize} items, one batch and one request at a time`,
      );
      const items = stream(sizes.overhead * batchSize, `overhead-${batchSize}`);
      const run = await runPipelinePhase(
        stack,
        serial,
        { batchSize, maximumBatchingWindowMs: 0, maximumConcurrency: 1 },
        items,
        exchanges,
      );
      overhead.push({
        batch_size: batchSize,
        items: run.items,
        wall_ms: run.wall_ms,
        adapter_ms: run.adapter_ms,
        overhead_ms_per_item: round((run.wall_ms - run.adapter_ms) / run.items),
      });
    }

    const ratio = groupedRun.input_tokens / oneQuestionTokens;
    const report: PipelineBenchReport = {
      command: `decisions bench --pipeline${quick ? " --quick" : ""}${options.modelPath ? ` --model ${options.modelPath}` : ""}`,
      started_at: startedAt.toISOString(),
      duration_s: round((Date.now() - startedAt.getTime()) / 1000),
      quick,
      machine: {
        ...describeMachine(),
        load_average_start: loadStart.map(round),
        load_average_end: loadavg().map(round),
      },
      model: modelPath,
      P5: p5Figure(p5, alone, piped),
      cpu_seconds: {
        adapter_alone: { wall_s: aloneMeasured.wallS, ...aloneMeasured.cpu },
        pipeline: { wall_s: pipedMeasured.wallS, ...pipedMeasured.cpu },
      },
      grouping: {
        items: grouped.length,
        distinct_states: groupedRun.tokensByState.size,
        pipeline_tokens_per_item: round(groupedRun.input_tokens / grouped.length),
        one_question_tokens_per_item: round(oneQuestionTokens / grouped.length),
        ratio: round(ratio),
        token_count_limit: round(distinctTokens / oneQuestionTokens),
        gain: round(1 / ratio),
      },
      overhead,
    };
    const outDir = options.outDir ?? join(process.cwd(), "lab", "bench", "results");
    await mkdir(outDir, { recursive: true });
    const jsonPath = join(outDir, `pipeline-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
    await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    return { report, jsonPath };
  } finally {
    await proxy?.stop();
    await stack.stop();
  }
}

function p5Figure(value: number, alone: AdapterAloneRun[], piped: PipelinePhase): Figure {
  const { tokensByState: _states, ...pipeline } = piped;
  return {
    label: "pipeline decisions/s ÷ adapter-alone decisions/s (same items, saturation)",
    value: round(value),
    goal: ">= 0.95",
    met: value >= 0.95,
    details: {
      adapter_alone: {
        items: alone[0]?.items ?? 0,
        decisions_per_s: alone.reduce((total, run) => total + run.decisions_per_s, 0) / alone.length,
        runs: alone,
      },
      pipeline: { ...pipeline, ...PIPELINE_MAPPING, max_concurrent_groups: 4 },
    },
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function fmt(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(" ");
}
