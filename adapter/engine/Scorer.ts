import { availableParallelism, tmpdir } from "node:os";
import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { LlamaBuild } from "./builds/llamaBuilds.js";
import { cacheBoundFor } from "./cache/cacheBoundFor.js";
import { StateFileCache } from "./cache/StateFileCache.js";
import { generateChat } from "./chat/generateChat.js";
import { prepareChat } from "./chat/prepareChat.js";
import type { EngineLogger } from "./EngineLogger.js";
import { EngineDisposedError, GpuUnavailableError, ModelLoadError } from "./errors.js";
import { describeModel } from "./model/describeModel.js";
import { deriveLabelAlphabet, type LabelAlphabet } from "./model/labelAlphabet.js";
import { loadBinding } from "./model/loadBinding.js";
import { modelNameOf } from "./model/modelNameOf.js";
import { openModel } from "./model/openModel.js";
import { measurePrompts, sharedPrefixTokens } from "./prompt/measurePrompts.js";
import {
  type PreparedPrompt,
  type PromptContext,
  preambleTokensOf,
  preparePrompts,
} from "./prompt/preparePrompts.js";
import { ASSISTANT_OPENING, PROMPT_VERSION } from "./prompt/renderPrompt.js";
import { resultsByQuestion } from "./readout/resultsByQuestion.js";
import { SlotReader } from "./readout/SlotReader.js";
import { type ReuseCounts, scorePrompt } from "./readout/scorePrompt.js";
import { ChunkedSequence } from "./sequence/ChunkedSequence.js";
import { createScoringContext } from "./sequence/createScoringContext.js";
import { laneFor } from "./sequence/laneFor.js";
import { SamplerGarbage } from "./sequence/SamplerGarbage.js";
import { SequencePool } from "./sequence/SequencePool.js";
import type {
  BatchResult,
  CacheBound,
  CacheStats,
  ChatCompletionRequest,
  ChatCompletionResult,
  DecisionBatch,
  DecisionEngine,
  DecisionResult,
  ModelIdentity,
  PreparedBatch,
  PromptMeasure,
  ScoreOptions,
} from "./types.js";
import { PromptWorker } from "./worker/PromptWorker.js";

/** Options of {@link Scorer.load}. */
export interface ScorerOptions {
  /** Path of the GGUF file. */
  modelPath: string;
  /** CPU threads for evaluation. Default: the number of available cores. */
  threads?: number;
  /** Context size in tokens: the longest prompt. Default: 8192, or the trained length if smaller. */
  contextSize?: number;
  /** Tokens evaluated per decode step. Default: 512. */
  batchSize?: number;
  /**
   * Sequences in the one context: up to this many calls are evaluated at once, on their own
   * sequences, node-llama-cpp batching their tokens into shared decode steps (what an accelerator
   * turns into throughput; a 2-core CPU gains little). Each sequence holds the full `contextSize`
   * (the KV memory grows N-fold) and its own live state; a call runs on the free sequence whose
   * live tokens it can reuse most. Default: 1 (calls serialised in arrival order).
   */
  parallelSequences?: number;
  /**
   * How parallel sequences share decode steps (with `parallelSequences` > 1):
   * - `exact` (the default): a step merges only chunks of equal length (`equalLengthBatching`),
   *   so every answer is bitwise the one a serial run gives; other chunks take turns.
   * - `merged`: every queued chunk shares the step (node-llama-cpp's `maximumParallelism`), the
   *   most throughput; llama.cpp then splits a longer chunk into pieces the size of the shorter
   *   one, which changes its numbers in the last digits (up to 9e-4 in probability measured on
   *   tiny-qwen3), and which calls overlap depends on timing.
   */
  parallelBatching?: "exact" | "merged";
  /**
   * Layers offloaded to a GPU: 0 runs on CPU (the default), -1 offloads all, N offloads N.
   * Any value but 0 requires a GPU backend; without one, loading fails with {@link GpuUnavailableError}.
   */
  gpuLayers?: number;
  /**
   * Which llama.cpp binary to run on ({@link LlamaBuild}): node-llama-cpp's `prebuilt` one (the
   * default), or a `native` / `native-amx` / `portable` build made from the bundled source by
   * `decisions build-llama` (OpenMP; `native`: `-march=native` without ggml's AMX kernels,
   * `native-amx`: with them). A source build that is not there is a
   * {@link ModelLoadError}; it is never built here. Ignored when `llama` is given.
   */
  llamaBuild?: LlamaBuild;
  /** Use flash attention when the model supports it. Default: true. */
  flashAttention?: boolean;
  /**
   * Render and tokenize in {@link Scorer.prepare} on a worker thread ({@link PromptWorker}: the
   * model's vocabulary loaded a second time, without weights), so the event loop stays free while
   * a large batch is prepared. The HTTP server turns it on; a process that scores one batch at a
   * time gains nothing from it. Default: false (prepared on the calling thread).
   */
  promptWorker?: boolean;
  /**
   * Bound, in bytes, of the states kept for reuse across requests: the saved state files (one per
   * recently evaluated state, least recently used evicted first), and separately the in-memory
   * snapshots of a recurrent or hybrid model (divided among the parallel sequences). 0 keeps no
   * state files and writes nothing to disk. Default: sized from the machine once the model and its
   * context are loaded (`defaultCacheBytes`: min(8 GiB, half the free disk under `cacheDir`,
   * a quarter of the available memory), at least min(64 MiB, half of either)). The value used and
   * how it was chosen are logged once (`cache_bound`, info) and reported by {@link Scorer.cacheStats}.
   */
  cacheMaxBytes?: number;
  /**
   * Folder in which the private folder of saved state files is made, at the first save. A folder
   * that cannot be made or written only costs the reuse (counted in {@link Scorer.cacheStats}).
   * Default: the OS temporary folder.
   */
  cacheDir?: string;
  /** SHA-256 of the file when already known (e.g. verified against its manifest); else it is computed. */
  sha256?: string;
  /** Default readout: `label-only` (fast, the default) or `full-vocabulary` (reports slot mass). */
  readout?: "label-only" | "full-vocabulary";
  /** Lowest llama.cpp log level passed on. Default: `warn`. */
  logLevel?: "error" | "warn" | "info" | "debug";
  /**
   * Where llama.cpp's own log lines (`llama_cpp` records, when the scorer loads the binding) and
   * cache failures go. Default: llama.cpp's lines are printed by node-llama-cpp on the console, and
   * cache failures are only counted.
   */
  logger?: EngineLogger;
  /**
   * A llama.cpp binding already loaded (shared by several scorers in one process); else one is
   * loaded. With several contexts on one binding, create it with `maxThreads: 0`: node-llama-cpp
   * otherwise divides one thread budget among them.
   */
  llama?: Llama;
  /**
   * The model already loaded from `modelPath` on `llama` (e.g. shared with another context); the
   * scorer then creates only its context, and does not dispose the model.
   */
  model?: LlamaModel;
}

const DEFAULT_CONTEXT_SIZE = 8192;
const DEFAULT_BATCH_SIZE = 512;

/**
 * The decision engine on node-llama-cpp: scores declared options from one forward pass, generating
 * no tokens (docs/engine.md). One context owns the llama.cpp state; each call runs on one of its
 * sequences (one by default, so calls are serialised in arrival order; `parallelSequences` lets
 * several run at once).
 *
 * The work is done by small units, in the order a batch meets them: {@link preparePrompts} (checks,
 * rendering, tokens); {@link SequencePool} and {@link laneFor} (which call runs on which sequence);
 * {@link scorePrompt} (one prompt evaluated on its {@link ChunkedSequence} — fixed evaluation chunks,
 * reuse across calls, saved state files — and its answer slot read by {@link SlotReader});
 * {@link resultsByQuestion} (debiased answers combined). Loading has its own:
 * {@link loadBinding}, `openModel`, {@link createScoringContext}, {@link describeModel} (identity);
 * and chat its: `prepareChat` / `generateChat` (the standard path). The scorer loads, owns and
 * orchestrates them.
 *
 * @example
 * await using scorer = await Scorer.load({ modelPath: "model.gguf", threads: 2 });
 * const { results } = await scorer.scoreBatch({ state: "I was charged twice", questions: [{
 *   id: "route", question: "Which team?", options: [{ id: "billing", description: "Billing" },
 *   { id: "tech", description: "Technical support" }] }] });
 */
export class Scorer implements DecisionEngine {
  readonly identity: ModelIdentity;
  readonly promptVersion = PROMPT_VERSION;
  readonly contextSize: number;
  readonly #llama: Llama;
  readonly #ownsLlama: boolean;
  readonly #ownsModel: boolean;
  readonly #model: LlamaModel;
  readonly #context: LlamaContext;
  readonly #sequences: readonly LlamaContextSequence[];
  readonly #pool: SequencePool<ChunkedSequence>;
  readonly #slots: SlotReader;
  readonly #alphabet: LabelAlphabet;
  readonly #prompts: PromptContext;
  readonly #readout: "label-only" | "full-vocabulary";
  readonly #cacheBound: CacheBound;
  readonly #stateFiles: StateFileCache;
  readonly #samplerGarbage: SamplerGarbage;
  readonly #promptWorker: PromptWorker | undefined;
  /** The prompts of each batch {@link prepare} gave out, for `scoreBatch`'s `prepared`. */
  readonly #preparedPrompts = new WeakMap<PreparedBatch, { prompts: PreparedPrompt[]; ms: number }>();
  readonly #stats: ReuseCounts = { hits: 0, fileHits: 0, misses: 0, reused: 0, evaluated: 0 };
  #disposed = false;

  private constructor(parts: {
    llama: Llama;
    ownsLlama: boolean;
    ownsModel: boolean;
    model: LlamaModel;
    context: LlamaContext;
    sequences: LlamaContextSequence[];
    alphabet: LabelAlphabet;
    identity: ModelIdentity;
    readout: "label-only" | "full-vocabulary";
    batchSize: number;
    cacheBound: CacheBound;
    stateFiles: StateFileCache;
    promptWorker: PromptWorker | undefined;
  }) {
    this.#llama = parts.llama;
    this.#ownsLlama = parts.ownsLlama;
    this.#ownsModel = parts.ownsModel;
    this.#model = parts.model;
    this.#context = parts.context;
    this.#sequences = parts.sequences;
    this.#alphabet = parts.alphabet;
    this.identity = parts.identity;
    this.#readout = parts.readout;
    this.#cacheBound = parts.cacheBound;
    this.#stateFiles = parts.stateFiles;
    this.#promptWorker = parts.promptWorker;
    this.contextSize = parts.context.contextSize;
    const samplerGarbage = new SamplerGarbage({ vocabularySize: parts.identity.vocab_size });
    this.#samplerGarbage = samplerGarbage;
    this.#pool = new SequencePool(
      parts.sequences.map(
        (sequence) =>
          new ChunkedSequence({
            sequence,
            batchSize: parts.batchSize,
            stateFiles: parts.stateFiles,
            samplerGarbage,
          }),
      ),
    );
    const labelTokens = parts.alphabet.tokens as Token[];
    this.#slots = new SlotReader(parts.model.tokenizer, labelTokens, parts.batchSize);
    this.#prompts = {
      vocabulary: parts.model,
      labels: parts.alphabet.labels,
      labelTokens,
      contextSize: this.contextSize,
      preambleTokens: preambleTokensOf(parts.model),
    };
  }

  /**
   * Loads a GGUF model, creates its context and derives its label alphabet. The file's hash and the
   * model load run side by side; whichever fails stops the other, and both are settled before the
   * call returns or throws.
   * @throws GpuUnavailableError when `gpuLayers` ≠ 0 and no GPU backend loads.
   * @throws ModelLoadError when the file is missing, unreadable or not a usable GGUF, when the
   *   llama.cpp binding cannot load, or when its vocabulary has no A..Z labels; `cause` keeps why.
   */
  static async load(options: ScorerOptions): Promise<Scorer> {
    const threads = options.threads ?? availableParallelism();
    const gpuLayers = options.gpuLayers ?? 0;
    const ownsLlama = options.llama === undefined;
    const llama = options.llama ?? (await loadBinding(options, threads, gpuLayers));
    if (gpuLayers !== 0 && llama.gpu === false) {
      if (ownsLlama) await llama.dispose();
      throw new GpuUnavailableError(
        `GPU offload was requested (gpuLayers=${gpuLayers}) but no GPU backend could be loaded; refusing to run on CPU`,
      );
    }
    const ownsModel = options.model === undefined;
    const opened = await openModel(llama, {
      modelPath: options.modelPath,
      gpuLayers,
      model: options.model,
      sha256: options.sha256,
    });
    if (!opened.ok) {
      if (ownsLlama) await llama.dispose();
      throw new ModelLoadError(`could not load the model at ${options.modelPath}`, { cause: opened.error });
    }
    const { model, sha256 } = opened;
    let context: LlamaContext | undefined;
    let promptWorker: PromptWorker | undefined;
    try {
      const contextSize = options.contextSize ?? Math.min(DEFAULT_CONTEXT_SIZE, model.trainContextSize);
      const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
      const parallelSequences = options.parallelSequences ?? 1;
      context = await createScoringContext(model, {
        contextSize,
        batchSize,
        threads,
        parallelSequences,
        parallelBatching: options.parallelBatching,
        flashAttention: options.flashAttention ?? true,
      });
      const created = context;
      // Sized after the model and its context are allocated, so the memory they took is not
      // counted as room; measured where StateFileCache makes its folder.
      const cacheBound = await cacheBoundFor(options.cacheMaxBytes, options.cacheDir ?? tmpdir());
      const cacheMaxBytes = cacheBound.bytes;
      const sequences = Array.from({ length: parallelSequences }, () =>
        created.getSequence({
          contextShift: { size: 0 },
          checkpoints: { max: 64, interval: false, maxMemory: Math.floor(cacheMaxBytes / parallelSequences) },
        }),
      );
      const alphabet = deriveLabelAlphabet(
        (text) => model.tokenize(text, true),
        (token) => model.detokenize([token as Token], true),
        `<|im_end|>\n${ASSISTANT_OPENING}`,
      );
      const identity = await describeModel(model, options.modelPath, sha256);
      promptWorker =
        options.promptWorker === true
          ? await PromptWorker.start({
              modelPath: options.modelPath,
              llamaBuild: options.llama === undefined ? options.llamaBuild : undefined,
              labels: alphabet.labels,
              labelTokens: alphabet.tokens as Token[],
              contextSize: context.contextSize,
            })
          : undefined;
      options.logger?.log("info", "llama_binding", {
        build_type: llama.buildType,
        release: llama.llamaCppRelease.release,
        requested: options.llama === undefined ? (options.llamaBuild ?? "prebuilt") : "given",
        cpu_math_cores: llama.cpuMathCores,
      });
      options.logger?.log("info", "cache_bound", {
        max_bytes: cacheBound.bytes,
        source: cacheBound.source,
        sized_from: cacheBound.sized_from,
      });
      return new Scorer({
        llama,
        ownsLlama,
        ownsModel,
        model,
        context,
        sequences,
        alphabet,
        identity,
        readout: options.readout ?? "label-only",
        batchSize,
        cacheBound,
        stateFiles: new StateFileCache({
          maxBytes: cacheMaxBytes,
          parent: options.cacheDir,
          logger: options.logger,
        }),
        promptWorker,
      });
    } catch (error) {
      await promptWorker?.close();
      await context?.dispose();
      if (ownsModel) await model.dispose();
      if (ownsLlama) await llama.dispose();
      if (error instanceof ModelLoadError) throw error;
      throw new ModelLoadError(`could not load the model at ${options.modelPath}`, { cause: error });
    }
  }

  /** Most options one question may have: the size of the verified label alphabet. */
  get maxOptions(): number {
    return this.#alphabet.labels.length;
  }

  /** The verified answer labels, in slot order. */
  get labels(): readonly string[] {
    return this.#alphabet.labels;
  }

  /** Whether this model's state must be snapshotted rather than truncated (recurrent or hybrid). */
  get needsSnapshots(): boolean {
    return this.#sequences[0]?.needsCheckpoints ?? false;
  }

  /**
   * The llama.cpp binary this scorer runs on: node-llama-cpp's `prebuilt` one or a `localBuild`
   * (`decisions build-llama`), and the llama.cpp release it was built from.
   */
  get binding(): { buildType: "prebuilt" | "localBuild"; release: string } {
    return { buildType: this.#llama.buildType, release: this.#llama.llamaCppRelease.release };
  }

  /** Sequences evaluated at once (`parallelSequences`). */
  get parallelSequences(): number {
    return this.#sequences.length;
  }

  /** Label for the `model` field of results ({@link modelNameOf}). */
  get modelName(): string {
    return modelNameOf(this.identity);
  }

  measure(batch: DecisionBatch): PromptMeasure {
    this.#ensureOpen();
    return measurePrompts(preparePrompts(batch, this.#prompts));
  }

  /**
   * {@link measure}, on the prompt worker when the scorer has one (`promptWorker`), keeping the
   * prompts for `scoreBatch(batch, { prepared })`.
   * @throws what `measure` throws; AbortedError when `signal` aborts first.
   */
  async prepare(batch: DecisionBatch, options: { signal?: AbortSignal } = {}): Promise<PreparedBatch> {
    this.#ensureOpen();
    const started = performance.now();
    const prompts =
      this.#promptWorker === undefined
        ? preparePrompts(batch, this.#prompts)
        : await this.#promptWorker.prepare(batch, options.signal);
    const prepared: PreparedBatch = { batch, measure: measurePrompts(prompts) };
    this.#preparedPrompts.set(prepared, { prompts, ms: performance.now() - started });
    return prepared;
  }

  async scoreBatch(batch: DecisionBatch, options: ScoreOptions = {}): Promise<BatchResult> {
    this.#ensureOpen();
    const started = performance.now();
    const given = options.prepared?.batch === batch ? options.prepared : undefined;
    const kept = given === undefined ? undefined : this.#preparedPrompts.get(given);
    const prompts = kept?.prompts ?? preparePrompts(batch, this.#prompts);
    const tokenizeMs = (kept?.ms ?? performance.now() - started) / prompts.length;
    const fullVocabulary = options.fullVocabulary ?? this.#readout === "full-vocabulary";
    const { value: scored, waitedMs } = await this.#pool.run(
      async (lane) => {
        this.#ensureOpen();
        const results: DecisionResult[] = [];
        for (const [index, prompt] of prompts.entries()) {
          results.push(
            await scorePrompt(lane, prompt, {
              slots: this.#slots,
              counts: this.#stats,
              model: this.modelName,
              firstOfBatch: index === 0,
              fullVocabulary,
              tokenizeMs,
              signal: options.signal,
            }),
          );
        }
        return results;
      },
      { pick: (free) => laneFor(free, prompts[0]), signal: options.signal },
    );
    return {
      results: resultsByQuestion(batch.questions, prompts, scored, waitedMs),
      timing: {
        queue_ms: waitedMs,
        total_ms: performance.now() - started,
        shared_prefix_tokens: sharedPrefixTokens(prompts),
      },
    };
  }

  async complete(
    request: ChatCompletionRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<ChatCompletionResult> {
    this.#ensureOpen();
    const started = performance.now();
    const chat = prepareChat(request, this.#model, this.contextSize);
    const { value } = await this.#pool.run(
      async (lane) => {
        this.#ensureOpen();
        return generateChat(lane, this.#model, chat, options.signal, started);
      },
      { signal: options.signal },
    );
    return value;
  }

  /** V8 collections asked for to free node-llama-cpp's sampler memory ({@link SamplerGarbage}), by kind. */
  get samplerCollections(): { minor: number; major: number } {
    return this.#samplerGarbage.collections;
  }

  cacheStats(): CacheStats {
    return {
      hits: this.#stats.hits,
      state_file_hits: this.#stats.fileHits,
      misses: this.#stats.misses,
      reused_tokens: this.#stats.reused,
      evaluated_tokens: this.#stats.evaluated,
      state_files: this.#stateFiles.size,
      state_file_bytes: this.#stateFiles.bytes,
      max_bytes: this.#cacheBound.bytes,
      max_bytes_source: this.#cacheBound.source,
      max_bytes_sized_from: this.#cacheBound.sized_from,
      snapshot_bytes: this.#sequences.reduce(
        (sum, sequence) => sum + (sequence.disposed ? 0 : sequence.checkpointsMemoryUsage),
        0,
      ),
      state_file_save_failures: this.#stateFiles.saveFailures,
      state_file_load_failures: this.#stateFiles.loadFailures,
      last_state_file_error: this.#stateFiles.lastError,
    };
  }

  /** Forgets every evaluated token, snapshot and saved state: the next call starts cold. */
  async clearCache(): Promise<void> {
    this.#ensureOpen();
    await this.#pool.runOnAll(async (lanes) => {
      for (const lane of lanes) await lane.clear();
    });
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    // Let the calls in progress (and those queued before dispose) finish on a live context.
    await this.#pool.runOnAll(async () => undefined);
    await this.#context.dispose();
    await this.#stateFiles.dispose();
    await this.#promptWorker?.close();
    if (this.#ownsModel) await this.#model.dispose();
    if (this.#ownsLlama) await this.#llama.dispose();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  #ensureOpen(): void {
    if (this.#disposed) throw new EngineDisposedError();
  }
}
