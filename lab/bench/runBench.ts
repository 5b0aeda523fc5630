import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { Scorer } from "../../adapter/engine/Scorer.js";
import type { DecisionEngine, DecisionQuestion } from "../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../adapter/models/generateModel.js";
import { readServerConfig } from "../../adapter/server/config.js";
import { DecisionServer } from "../../adapter/server/DecisionServer.js";
import { createJsonLogger } from "../../adapter/server/logger.js";
import { renderChart } from "../../evaluation/charts/renderChart.js";
import { type JevBenchCase, loadJevBench } from "../../evaluation/jevbench/loadJevBench.js";
import { quantile, sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";
import { caseQuestion, caseToBatch, distinctQuestions, spreadCases, stateOfTokens } from "./benchWorkload.js";
import { type BenchMachine, describeMachine } from "./describeMachine.js";
import { measureCrossRequestCache } from "./measureCrossRequestCache.js";
import { measureJevBench } from "./measureJevBench.js";
import { type LengthRow, measureLengthScaling } from "./measureLengthScaling.js";
import { measureOverhead } from "./measureOverhead.js";
import { measureParallel } from "./measureParallel.js";
import { measureDebiasCost, measureQuestionFirst } from "./measureQuestionFirst.js";
import { measureSharedState } from "./measureSharedState.js";
import { measureStandardPath } from "./measureStandardPath.js";
import { RawFloor } from "./RawFloor.js";

/** Options of {@link runBench}. */
export interface BenchOptions {
  /** GGUF to measure. Default: the generated `qwen3-0.6b-shape` (generated once, then cached). */
  modelPath?: string;
  /** A shorter run (fewer repetitions and cases, states up to 1200 tokens, no short-question P2): under 5 minutes on 2 cores. */
  quick?: boolean;
  /** CPU threads. Default: the number of available cores. */
  threads?: number;
  /** Where the JSON and SVG go. Default: `lab/bench/results`. */
  outDir?: string;
  /** Also measure through the HTTP adapter on loopback. Default: true. */
  http?: boolean;
  /** Also measure parallel sequences (P9; a second context with 4 sequences). Default: true. */
  parallel?: boolean;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** Everything one run measured; written as `lab/bench/results/<timestamp>.json`. */
export interface BenchReport {
  command: string;
  started_at: string;
  duration_s: number;
  quick: boolean;
  machine: BenchMachine;
  model: Scorer["identity"];
  threads: number;
  P1: Figure;
  P1_cold: Figure;
  P1_http: Figure | null;
  P2: Figure;
  /** Not measured by a quick run. */
  P2_short: Figure | null;
  P3: Figure;
  P4: Figure;
  P6: Figure;
  /** Question-first ÷ state-first per item, one 20-option question on JevBench states. */
  P8: Figure;
  /** Cyclic debiasing over all rotations ÷ one question, on a cached state. */
  debias: Figure;
  /** Parallel sequences ÷ serial throughput; null when not measured (`parallel: false`). */
  P9: Figure | null;
  extras: {
    load_ms: number;
    prefill_tokens_per_s: number;
    readout_js_ms_median: number;
    full_vocabulary_readout_extra_ms: number;
    peak_rss_mib: number;
  };
  length_table: LengthRow[];
}

const STATE_TOKENS = 400;
/** Deadline of one request to the bench's own server. */
const BENCH_DEADLINE_MS = 600_000;

/** Eight short triage questions (yes/no and a few short options), the kind a routing policy asks. */
const SHORT_QUESTIONS: DecisionQuestion[] = [
  ["security", "Is this a security incident?", ["yes", "no"]],
  ["priority", "Which priority?", ["P1", "P2", "P3", "P4"]],
  ["team", "Which team owns it?", ["payments", "edge", "identity", "data"]],
  ["customers", "Are customers affected?", ["yes", "no"]],
  ["page", "Page the on-call engineer?", ["yes", "no"]],
  ["data_loss", "Is there data loss?", ["yes", "no"]],
  ["region", "Which region?", ["eu", "us", "apac", "global"]],
  ["status_page", "Update the status page?", ["yes", "no"]],
].map(([id, question, options]) => ({
  id: id as string,
  question: question as string,
  options: (options as string[]).map((option) => ({ id: option, description: option })),
}));

/**
 * Runs every measurement of `decisions bench` side by side in one process and writes the report.
 * @returns the report and the paths of the JSON and SVG files written.
 */
export async function runBench(
  options: BenchOptions = {},
): Promise<{ report: BenchReport; jsonPath: string; svgPath: string }> {
  const startedAt = new Date();
  const quick = options.quick ?? false;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const threads = options.threads ?? cpus().length;
  const modelPath = options.modelPath ?? (await ensureGeneratedModel("qwen3-0.6b-shape"));
  const cases = await loadJevBench();
  const contextSize = 8192;

  log(`bench: model ${modelPath}, ${threads} threads, ${quick ? "quick" : "full"} run`);
  const llama = await getLlama({
    gpu: false,
    build: "never",
    maxThreads: threads,
    logLevel: LlamaLogLevel.error,
  });
  // One model in memory, two contexts on it: the engine's and the floor's read the same weights.
  const load = await timed(async () => {
    const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    return { model, scorer: await Scorer.load({ modelPath, llama, model, threads, contextSize }) };
  });
  const { model, scorer } = load.value;
  const floor = await RawFloor.create({ model, threads, contextSize });
  let server: DecisionServer | undefined;
  try {
    if (options.http ?? true) server = await startServer(scorer, threads);
    const context: BenchContext = {
      scorer,
      floor,
      cases,
      httpUrl: server === undefined ? undefined : `http://127.0.0.1:${server.address.port}`,
      quick,
      log,
    };
    const source = longestTextState(cases);
    const questions = distinctQuestions(cases, 8);
    const state = stateOfTokens(
      scorer,
      source,
      STATE_TOKENS,
      questions[0] ?? caseQuestion(cases[0] as JevBenchCase, "q"),
    );

    const overheadCases = pickByLength(cases, quick ? 2 : 6);
    const p1 = await measureOverhead(context, overheadCases, quick ? 1 : 3);
    const p2 = await measureSharedState(context, state, questions, quick ? 1 : 3, "JevBench questions");
    // The short-question variant only adds insight, so the quick run leaves it out.
    const p2Short = quick
      ? null
      : await measureSharedState(context, state, SHORT_QUESTIONS, 3, "short triage questions");
    const [first, second] = questions;
    if (first === undefined || second === undefined)
      throw new Error("JevBench yields fewer than two questions");
    const p3 = await measureCrossRequestCache(context, state, first, second, quick ? 2 : 5);
    const p4 = await measureStandardPath(context, spreadCases(shortest(cases, 80), quick ? 6 : 24));
    const p6 = await measureJevBench(context, quick ? spreadCases(shortest(cases, 120), 12) : cases);
    const lengths = await measureLengthScaling(
      context,
      source,
      quick ? [100, 400, 1200] : [100, 400, 1600, 3200],
      questions,
    );
    const p8States = spreadCases(shortest(cases, 120), quick ? 8 : 50).map((testCase) => testCase.state);
    const p8 = await measureQuestionFirst(context, p8States, quick ? 1 : 2);
    const debias = await measureDebiasCost(
      context,
      state,
      distinctQuestions(cases, 40).find((question) => question.options.length === 4) ?? first,
      quick ? 1 : 3,
    );
    const p9 =
      (options.parallel ?? true)
        ? await measureParallel(
            context,
            model,
            { modelPath, threads, contextSize },
            spreadCases(shortest(cases, 120), 8).map((testCase) => caseToBatch(testCase)),
            4,
            quick ? 1 : 5,
          )
        : null;
    const fullReadoutExtra = await measureFullReadout(scorer, state, first, second);

    const coldFloorMs = p1.cold.details.floor_ms as number[];
    const promptTokens = p1.newState.details.prompt_tokens as number[];
    const rawTokensPerSecond = sum(promptTokens) / (sum(coldFloorMs) / 1000);
    const report: BenchReport = {
      command: `decisions bench${quick ? " --quick" : ""}${options.modelPath ? ` --model ${options.modelPath}` : ""}`,
      started_at: startedAt.toISOString(),
      duration_s: (Date.now() - startedAt.getTime()) / 1000,
      quick,
      machine: describeMachine(),
      model: scorer.identity,
      threads,
      P1: p1.newState,
      P1_cold: p1.cold,
      P1_http: p1.http ?? null,
      P2: p2,
      P2_short: p2Short,
      P3: p3,
      P4: p4,
      P6: p6,
      P8: p8,
      debias,
      P9: p9,
      extras: {
        load_ms: load.ms,
        prefill_tokens_per_s: rawTokensPerSecond,
        readout_js_ms_median: fullReadoutExtra.labelOnlyJsMs,
        full_vocabulary_readout_extra_ms: fullReadoutExtra.extraMs,
        peak_rss_mib: process.resourceUsage().maxRSS / 1024,
      },
      length_table: lengths,
    };
    const outDir = options.outDir ?? join(process.cwd(), "lab", "bench", "results");
    await mkdir(outDir, { recursive: true });
    const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
    const jsonPath = join(outDir, `${stamp}.json`);
    const svgPath = join(outDir, `${stamp}.svg`);
    await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(svgPath, lengthChart(lengths, scorer.identity.name ?? scorer.identity.file));
    return { report, jsonPath, svgPath };
  } finally {
    await server?.close();
    await floor[Symbol.asyncDispose]();
    await scorer.dispose();
    await model.dispose();
    await llama.dispose();
  }
}

/** The in-process HTTP adapter on an ephemeral loopback port, serving the bench's scorer. */
async function startServer(scorer: Scorer, threads: number): Promise<DecisionServer> {
  // A 10-minute deadline: on a small CPU the longest JevBench prompts (~4,000 tokens) take longer
  // than SageMaker's 60 s invocation timeout, and the bench measures answers, not that timeout.
  const settings = readServerConfig(
    {},
    {
      host: "127.0.0.1",
      port: "0",
      threads: String(threads),
      "request-timeout-ms": String(BENCH_DEADLINE_MS),
    },
  );
  // The bench owns the scorer; the server must not dispose it when it closes.
  const borrowed: DecisionEngine = {
    identity: scorer.identity,
    maxOptions: scorer.maxOptions,
    promptVersion: scorer.promptVersion,
    contextSize: scorer.contextSize,
    scoreBatch: (batch, options) => scorer.scoreBatch(batch, options),
    measure: (batch) => scorer.measure(batch),
    prepare: (batch, options) => scorer.prepare(batch, options),
    complete: (request, options) => scorer.complete(request, options),
    cacheStats: () => scorer.cacheStats(),
    dispose: async () => undefined,
    [Symbol.asyncDispose]: async () => undefined,
  };
  const server = new DecisionServer({
    settings,
    loadEngine: async () => borrowed,
    logger: createJsonLogger({ level: "error", write: (line) => process.stderr.write(line) }),
  });
  await server.listen();
  await server.load();
  return server;
}

/** Extra cost of the full-vocabulary readout over label-only, on the same cached prompt. */
async function measureFullReadout(
  scorer: Scorer,
  state: string,
  warm: Parameters<Scorer["scoreBatch"]>[0]["questions"][number],
  question: Parameters<Scorer["scoreBatch"]>[0]["questions"][number],
): Promise<{ extraMs: number; labelOnlyJsMs: number }> {
  const labelOnly: number[] = [];
  const full: number[] = [];
  const js: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    await scorer.scoreBatch({ state, questions: [warm] });
    const a = await timed(() => scorer.scoreBatch({ state, questions: [question] }));
    labelOnly.push(a.ms);
    js.push(a.value.results[0]?.timing.readout_ms ?? Number.NaN);
    await scorer.scoreBatch({ state, questions: [warm] });
    full.push(
      (await timed(() => scorer.scoreBatch({ state, questions: [question] }, { fullVocabulary: true }))).ms,
    );
  }
  return { extraMs: quantile(full, 0.5) - quantile(labelOnly, 0.5), labelOnlyJsMs: quantile(js, 0.5) };
}

function longestTextState(cases: readonly JevBenchCase[]): string {
  let best = "";
  for (const testCase of cases) {
    if (typeof testCase.state === "string" && testCase.state.length > best.length) best = testCase.state;
  }
  return best;
}

function stateLength(testCase: JevBenchCase): number {
  return typeof testCase.state === "string" ? testCase.state.length : JSON.stringify(testCase.state).length;
}

/** The `count` cases whose states are shortest (for the costly standard-path comparison). */
function shortest(cases: readonly JevBenchCase[], count: number): JevBenchCase[] {
  return [...cases].sort((a, b) => stateLength(a) - stateLength(b)).slice(0, count);
}

/** `count` cases spread over the range of state lengths, from short to about 2,000 characters. */
function pickByLength(cases: readonly JevBenchCase[], count: number): JevBenchCase[] {
  const sorted = [...cases]
    .filter((c) => stateLength(c) <= 2000)
    .sort((a, b) => stateLength(a) - stateLength(b));
  return spreadCases(sorted, count);
}

function lengthChart(rows: readonly LengthRow[], model: string): string {
  return renderChart(
    [
      { name: "cold", colour: "#d62728", points: rows.map((r) => ({ x: r.state_tokens, y: r.cold_ms })) },
      {
        name: "cached state",
        colour: "#2ca02c",
        points: rows.map((r) => ({ x: r.state_tokens, y: r.cached_ms })),
      },
      {
        name: "shared ×8 (per question)",
        colour: "#1f77b4",
        points: rows.map((r) => ({ x: r.state_tokens, y: r.shared8_per_question_ms })),
      },
    ],
    {
      title: `Decision latency vs state length (${model})`,
      xLabel: "state tokens",
      yLabel: "ms per question",
    },
  );
}
