import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel, type LlamaModel } from "node-llama-cpp";
import type { LlamaBuild } from "../../../adapter/engine/builds/llamaBuilds.js";
import { type CpuFeatures, readCpuFeatures } from "../../../adapter/engine/builds/readCpuFeatures.js";
import { deriveLabelAlphabet } from "../../../adapter/engine/model/labelAlphabet.js";
import { ASSISTANT_OPENING, renderPrompt } from "../../../adapter/engine/prompt/renderPrompt.js";
import type { DecisionQuestion } from "../../../adapter/engine/types.js";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { type JevBenchCase, loadJevBench } from "../../../evaluation/jevbench/loadJevBench.js";
import { quantile, timed } from "../../../evaluation/metrics/statistics.js";
import { type AdapterProcess, startAdapterProcess } from "../../../local/services/startAdapterProcess.js";
import type { Figure } from "../BenchContext.js";
import { distinctQuestions } from "../benchWorkload.js";
import { type BenchMachine, describeMachine } from "../describeMachine.js";
import { postJson } from "../postJson.js";
import {
  ensureLlamaServer,
  type LlamaServerBinary,
  LlamaServerUnavailableError,
} from "./buildLlamaServer.js";
import { smokeTestLlamaServer } from "./smokeTestLlamaServer.js";
import { type FlashAttention, type RunningLlamaServer, startLlamaServer } from "./startLlamaServer.js";

/** Options of {@link runLlamaServerBench}. */
export interface LlamaServerBenchOptions {
  /** States of 100 and 400 words, 2 rounds (the full run adds 1,600 words and a third round). */
  quick?: boolean;
  /** GGUF to measure. Default: the generated `qwen3-0.6b-shape`. */
  modelPath?: string;
  /** Threads of both servers. Default: the available cores. */
  threads?: number;
  /** Where the JSON goes. Default: `lab/bench/results`. */
  outDir?: string;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
  /**
   * llama-server's flash attention (`-fa`). Default `auto` (on for these models). The engine runs
   * with flash attention when the model supports it (the report says which it used), so `off` on
   * a model without it compares like with like.
   */
  flashAttention?: FlashAttention;
  /** Keep ggml's AMX kernels in llama-server on a CPU with AMX. Default false (left out). */
  llamaServerAmx?: boolean;
  /** This machine's CPU. Default: read once here (`/proc/cpuinfo`). */
  cpu?: CpuFeatures;
  /** The adapters' environment, from the entry point (`process.env`); `SEMIF_LLAMA_BUILD` is set per adapter. */
  env: NodeJS.ProcessEnv;
}

/** The three request shapes the comparison runs, each for every state length. */
export const SCENARIOS = ["cold", "new_question", "eight_questions"] as const;
type Scenario = (typeof SCENARIOS)[number];

/** One scenario at one state length: median wall time per server, and the ratios. */
export interface LlamaServerRow {
  scenario: Scenario;
  state_words: number;
  prompt_tokens: number;
  /** Median wall time in ms per server name. */
  median_ms: Record<string, number>;
  /** Every timed round, per server name. */
  rounds_ms: Record<string, number[]>;
  /** Each adapter's median ÷ llama-server's. */
  ratio: Record<string, number>;
}

/** What {@link runLlamaServerBench} measured. */
export interface LlamaServerReport {
  command: string;
  started_at: string;
  duration_s: number;
  quick: boolean;
  machine: BenchMachine;
  model_path: string;
  threads: number;
  llama_server:
    | (Omit<LlamaServerBinary, "path"> & { binary: string; flash_attention: FlashAttention })
    | null;
  /** Whether the engine's context used flash attention (it does when the model supports it). */
  adapter_flash_attention: boolean;
  /** Why a server was not measured (no compiler, no native build, …). */
  skipped: string[];
  /** The adapters measured, by name (`adapter (prebuilt)`, `adapter (native)`). */
  adapters: string[];
  /** Every prompt the adapters answered had the sha256 of the tokens sent to llama-server. */
  same_prompts: boolean;
  rows: LlamaServerRow[];
  /** P7 per adapter: its worst ratio to llama-server; goal ≤ 1.0 in every case. */
  P7: Record<string, Figure>;
  /** The native build ÷ the prebuilt, median over every row, when both were measured. */
  build_gain: Figure | null;
}

/** A server under test: answers one question, or eight on one state, and says how long it took. */
interface Contender {
  name: string;
  one(state: string, question: DecisionQuestion): Promise<number>;
  eight(state: string, questions: readonly DecisionQuestion[]): Promise<number>;
  stop(): Promise<void>;
}

const CONTEXT_SIZE = 8192;
const BATCH_SIZE = 512;
const LLAMA_SERVER = "llama-server";

/**
 * P7: the adapter against llama-server built from the same llama.cpp source, side by side in one
 * run, both on loopback HTTP with the same model, the same prompts (the adapter's rendered prompt,
 * sent to llama-server as tokens, checked by sha256) and the same threads. For each state length:
 * a cold request (a state neither server has seen), a new question on a state the previous request
 * evaluated, and eight questions on one new state (one request to the adapter, eight requests with
 * `cache_prompt` to llama-server, which reuses the common prefix). llama-server answers with one
 * sampled token and the top `n_probs` probabilities (`n_predict: 1`): the first token is sampled
 * from the prompt's last logits, so no token beyond the prompt is evaluated, like the adapter.
 * The servers take turns request by request, the first one alternating.
 *
 * The adapter runs on the prebuilt binary and, when `decisions build-llama --variant native` made
 * it, also on the native build (the same compile flags as this llama-server).
 */
export async function runLlamaServerBench(
  options: LlamaServerBenchOptions,
): Promise<{ report: LlamaServerReport; jsonPath: string }> {
  const startedAt = new Date();
  const quick = options.quick ?? false;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const threads = options.threads ?? availableParallelism();
  const modelPath = options.modelPath ?? (await ensureGeneratedModel("qwen3-0.6b-shape"));
  const lengths = quick ? [100, 400] : [100, 400, 1600];
  const rounds = quick ? 2 : 3;
  const cases = await loadJevBench();
  const questions = distinctQuestions(cases, 8 + 2 * rounds);
  const words = corpusWords(cases);
  const skipped: string[] = [];
  const cpu = options.cpu ?? readCpuFeatures();
  const flashAttention = options.flashAttention ?? "auto";

  let binary: LlamaServerBinary | null = null;
  try {
    binary = await ensureLlamaServer({
      cacheDir: join(packageRoot(), ".cache", "llama-server"),
      cpu,
      amx: options.llamaServerAmx ?? false,
      log,
    });
    log(
      binary.buildS > 0
        ? `llama-server built in ${binary.buildS.toFixed(0)} s`
        : "llama-server: cached build",
    );
    // Before it is measured: a build that crashes here is reported as a crash of that build.
    const smokeMs = await smokeTestLlamaServer({
      binary,
      modelPath: await ensureGeneratedModel("tiny-qwen3"),
      cpu,
      threads,
    });
    log(`llama-server: smoke test passed (tiny-qwen3, one prompt) in ${smokeMs.toFixed(0)} ms`);
  } catch (error) {
    if (!(error instanceof LlamaServerUnavailableError)) throw error;
    skipped.push(`llama-server: ${error.message}`);
    log(`P7 skipped: ${error.message}`);
  }

  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
  const vocabulary = await llama.loadModel({ modelPath, vocabOnly: true });
  // The engine's rule (Scorer): flash attention whenever the model supports it.
  const adapterFlashAttention = vocabulary.flashAttentionSupported;
  const prompts = promptMaker(vocabulary);
  const contenders: Contender[] = [];
  let samePrompts = true;
  const checkSha = (sha: unknown, state: string, question: DecisionQuestion): void => {
    if (sha !== prompts.sha256(state, question)) samePrompts = false;
  };
  try {
    if (binary !== null) {
      const server = await startLlamaServer({
        binary: binary.path,
        modelPath,
        threads,
        contextSize: CONTEXT_SIZE,
        batchSize: BATCH_SIZE,
        flashAttention,
        build: { cmakeOptions: binary.cmakeOptions, amx: binary.amx, cpu },
      });
      log(
        `P7: llama-server -fa ${flashAttention}; the engine ${adapterFlashAttention ? "with" : "without"} flash attention`,
      );
      contenders.push(llamaServerContender(server, prompts.tokens));
    }
    for (const build of ["prebuilt", "native"] as const satisfies readonly LlamaBuild[]) {
      try {
        const adapter = await startAdapterProcess({
          modelPath,
          threads,
          requireManifest: false,
          env: { ...options.env, SEMIF_LLAMA_BUILD: build },
          extraArgs: ["--request-timeout-ms", "600000"],
        });
        contenders.push(adapterContender(`adapter (${build})`, adapter, checkSha));
      } catch (error) {
        if (build === "prebuilt") throw error;
        skipped.push(`adapter (native): ${(error as Error).message.split("\n")[0]}`);
        log(`adapter (native) not measured: run \`decisions build-llama\` first`);
      }
    }

    const rows: LlamaServerRow[] = [];
    let stateNumber = 0;
    const freshState = (length: number): string => stateOfWords(words, length, stateNumber++);
    for (const length of lengths) {
      for (const scenario of SCENARIOS) {
        const roundsMs: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
        let promptTokens = 0;
        for (let round = 0; round < rounds; round += 1) {
          const state = freshState(length);
          const [warm, asked] = [questions[8 + 2 * round], questions[9 + 2 * round]] as DecisionQuestion[];
          const eight = questions.slice(0, 8);
          const first = asked as DecisionQuestion;
          promptTokens = prompts.tokens(state, first).length;
          // Take turns, the first one rotating, so neither always runs right after the other.
          const order = contenders.map(
            (_, index) => contenders[(index + round) % contenders.length] as Contender,
          );
          for (const contender of order) {
            let ms: number;
            if (scenario === "cold") ms = await contender.one(state, first);
            else if (scenario === "new_question") {
              await contender.one(state, warm as DecisionQuestion);
              ms = await contender.one(state, first);
            } else ms = await contender.eight(state, eight);
            roundsMs[contender.name]?.push(ms);
          }
          log(
            `P7 ${scenario} ${length} words round ${round + 1}: ${order
              .map((c) => `${c.name} ${roundsMs[c.name]?.at(-1)?.toFixed(0)} ms`)
              .join(", ")}`,
          );
        }
        const medians = Object.fromEntries(
          Object.entries(roundsMs).map(([name, values]) => [name, quantile(values, 0.5)]),
        );
        const base = medians[LLAMA_SERVER];
        const ratio = Object.fromEntries(
          contenders
            .filter((c) => c.name !== LLAMA_SERVER && base !== undefined)
            .map((c) => [c.name, (medians[c.name] as number) / (base as number)]),
        );
        rows.push({
          scenario,
          state_words: length,
          prompt_tokens: promptTokens,
          median_ms: medians,
          rounds_ms: roundsMs,
          ratio,
        });
      }
    }

    const adapters = contenders.map((c) => c.name).filter((name) => name !== LLAMA_SERVER);
    const p7: Record<string, Figure> = {};
    if (binary !== null) {
      for (const name of adapters) {
        const ratios = rows.map((row) => row.ratio[name] as number);
        const worst = Math.max(...ratios);
        p7[name] = {
          label: `${name} ÷ llama-server (same source, native OpenMP build, -fa ${flashAttention}), median wall time, worst case`,
          value: worst,
          goal: "≤ 1.0 in each case",
          met: ratios.every((value) => value <= 1.0),
          details: Object.fromEntries(
            rows.map((row) => [`${row.scenario} ${row.state_words}w`, row.ratio[name]]),
          ),
        };
      }
    }
    const buildGain = adapters.includes("adapter (native)")
      ? (() => {
          const gains = rows.map(
            (row) =>
              (row.median_ms["adapter (native)"] as number) / (row.median_ms["adapter (prebuilt)"] as number),
          );
          const median = quantile(gains, 0.5);
          return {
            label: "adapter on the native OpenMP build ÷ on the prebuilt binary, median over the cases",
            value: median,
            goal: "< 1 (faster) to be worth building",
            met: median < 1,
            details: Object.fromEntries(
              rows.map((row, index) => [`${row.scenario} ${row.state_words}w`, gains[index]]),
            ),
          };
        })()
      : null;
    const report: LlamaServerReport = {
      command: `decisions bench --llama-server${quick ? " --quick" : ""}${options.modelPath ? ` --model ${options.modelPath}` : ""}${flashAttention === "auto" ? "" : ` --llama-server-fa ${flashAttention}`}${options.llamaServerAmx ? " --llama-server-amx" : ""}`,
      started_at: startedAt.toISOString(),
      duration_s: (Date.now() - startedAt.getTime()) / 1000,
      quick,
      machine: describeMachine(),
      model_path: modelPath,
      threads,
      llama_server:
        binary === null
          ? null
          : {
              binary: binary.path,
              commit: binary.commit,
              cmakeOptions: binary.cmakeOptions,
              buildS: binary.buildS,
              amx: binary.amx,
              amxChoice: binary.amxChoice,
              flash_attention: flashAttention,
            },
      adapter_flash_attention: adapterFlashAttention,
      skipped,
      adapters,
      same_prompts: samePrompts,
      rows,
      P7: p7,
      build_gain: buildGain,
    };
    const outDir = options.outDir ?? join(process.cwd(), "lab", "bench", "results");
    await mkdir(outDir, { recursive: true });
    const jsonPath = join(outDir, `llama-server-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
    await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    return { report, jsonPath };
  } finally {
    for (const contender of contenders) await contender.stop();
    await vocabulary.dispose();
    await llama.dispose();
  }
}

/** The adapter's prompt for a question, as text hash and as tokens (what llama-server is sent). */
function promptMaker(vocabulary: LlamaModel): {
  tokens: (state: string, question: DecisionQuestion) => number[];
  sha256: (state: string, question: DecisionQuestion) => string;
} {
  const alphabet = deriveLabelAlphabet(
    (text) => vocabulary.tokenize(text, true),
    (token) => vocabulary.detokenize([token as never], true),
    `<|im_end|>\n${ASSISTANT_OPENING}`,
  );
  const render = (state: string, question: DecisionQuestion) =>
    renderPrompt(state, question.question, question.options, alphabet.labels);
  return {
    tokens: (state, question) => vocabulary.tokenize(render(state, question).text, true),
    sha256: (state, question) => createHash("sha256").update(render(state, question).text).digest("hex"),
  };
}

function adapterContender(
  name: string,
  adapter: AdapterProcess,
  checkSha: (sha: unknown, state: string, question: DecisionQuestion) => void,
): Contender {
  const url = `${adapter.url}/invocations`;
  const decision = (state: string, question: DecisionQuestion) => ({
    id: question.id,
    state,
    question: question.question,
    options: question.options,
  });
  return {
    name,
    async one(state, question) {
      const { value, ms } = await timed(() => postJson(url, { decision: decision(state, question) }));
      const body = expectOk(name, value) as { result?: { prompt_sha256?: unknown } };
      checkSha(body.result?.prompt_sha256, state, question);
      return ms;
    },
    async eight(state, questions) {
      const { value, ms } = await timed(() =>
        postJson(url, { decisions: questions.map((question) => decision(state, question)) }),
      );
      const body = expectOk(name, value) as { results?: { prompt_sha256?: unknown }[] };
      questions.forEach((question, index) => {
        checkSha(body.results?.[index]?.prompt_sha256, state, question);
      });
      return ms;
    },
    stop: () => adapter.stop(),
  };
}

function llamaServerContender(
  server: RunningLlamaServer,
  tokensOf: (state: string, question: DecisionQuestion) => number[],
): Contender {
  const url = `${server.url}/completion`;
  const ask = async (state: string, question: DecisionQuestion): Promise<number> => {
    const body = {
      prompt: tokensOf(state, question),
      n_predict: 1,
      n_probs: question.options.length,
      temperature: 0,
      cache_prompt: true,
    };
    const { value, ms } = await timed(() =>
      postJson(url, body).catch(async (error: unknown) => {
        // A crash mid-run is told as a crash of llama-server, with its signal.
        throw (await server.crashed("while answering a P7 request")) ?? error;
      }),
    );
    expectOk(LLAMA_SERVER, value);
    return ms;
  };
  return {
    name: LLAMA_SERVER,
    one: ask,
    async eight(state, questions) {
      let total = 0;
      for (const question of questions) total += await ask(state, question);
      return total;
    },
    stop: () => server.stop(),
  };
}

function expectOk(name: string, answer: { status: number; body: unknown }): unknown {
  if (answer.status !== 200) {
    throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return answer.body;
}

/** Every word of the public cases' text states, in order: the source of states of any length. */
function corpusWords(cases: readonly JevBenchCase[]): string[] {
  return cases.flatMap((testCase) => (typeof testCase.state === "string" ? testCase.state.split(/\s+/) : []));
}

/** A state of `length` words starting at a different place for each `index` (never seen before). */
function stateOfWords(words: readonly string[], length: number, index: number): string {
  const start = (index * 7919) % Math.max(1, words.length - length);
  const picked: string[] = [];
  for (let at = start; picked.length < length; at += 1) picked.push(words[at % words.length] as string);
  return picked.join(" ");
}
