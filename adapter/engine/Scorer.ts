import { availableParallelism } from "node:os";
import {
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { ChunkedSequence } from "./ChunkedSequence.js";
import { decisionResultOf } from "./decisionResultOf.js";
import { describeModel } from "./describeModel.js";
import type { EngineLogger } from "./EngineLogger.js";
import { EngineDisposedError, GpuUnavailableError, ModelLoadError } from "./errors.js";
import { generateChat } from "./generateChat.js";
import { deriveLabelAlphabet, type LabelAlphabet } from "./labelAlphabet.js";
import { llamaLogRouter } from "./llamaLogRouter.js";
import { measurePrompts } from "./measurePrompts.js";
import { modelNameOf } from "./modelNameOf.js";
import { openModel } from "./openModel.js";
import { prepareChat } from "./prepareChat.js";
import { type PreparedPrompt, type PromptContext, preparePrompts } from "./preparePrompts.js";
import { ASSISTANT_OPENING, PROMPT_VERSION, renderPrompt } from "./renderPrompt.js";
import { SerialQueue } from "./SerialQueue.js";
import { SlotReader } from "./SlotReader.js";
import { StateFileCache } from "./StateFileCache.js";
import { throwIfAborted } from "./throwIfAborted.js";
import type {
  BatchResult,
  CacheStats,
  ChatCompletionRequest,
  ChatCompletionResult,
  DecisionBatch,
  DecisionEngine,
  DecisionResult,
  ModelIdentity,
  PromptMeasure,
  ScoreOptions,
} from "./types.js";

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
   * Layers offloaded to a GPU: 0 runs on CPU (the default), -1 offloads all, N offloads N.
   * Any value but 0 requires a GPU backend; without one, loading fails with {@link GpuUnavailableError}.
   */
  gpuLayers?: number;
  /** Use flash attention when the model supports it. Default: true. */
  flashAttention?: boolean;
  /**
   * Bound, in bytes, of the states kept for reuse across requests: the saved state files (one per
   * recently evaluated state, least recently used evicted first), and separately the in-memory
   * snapshots of a recurrent or hybrid model. 0 keeps no state files and writes nothing to disk.
   * Default: 512 MiB.
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
const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * The decision engine on node-llama-cpp: scores declared options from one forward pass, generating
 * no tokens (DESIGN.md §1). One context and one sequence own the llama.cpp state; calls are
 * serialised in arrival order.
 *
 * The work is done by small units: {@link preparePrompts} (checks, rendering, tokens),
 * {@link ChunkedSequence} (fixed evaluation chunks, reuse across calls, saved state files),
 * {@link SlotReader} (the answer-slot distribution), `prepareChat` / `generateChat` (the standard
 * path) and {@link describeModel} (identity). The scorer loads, owns and orchestrates them.
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
  readonly #sequence: LlamaContextSequence;
  readonly #chunked: ChunkedSequence;
  readonly #slots: SlotReader;
  readonly #alphabet: LabelAlphabet;
  readonly #prompts: PromptContext;
  readonly #queue = new SerialQueue();
  readonly #readout: "label-only" | "full-vocabulary";
  readonly #cacheMaxBytes: number;
  readonly #stateFiles: StateFileCache;
  readonly #stats = { hits: 0, fileHits: 0, misses: 0, reused: 0, evaluated: 0 };
  #disposed = false;

  private constructor(parts: {
    llama: Llama;
    ownsLlama: boolean;
    ownsModel: boolean;
    model: LlamaModel;
    context: LlamaContext;
    sequence: LlamaContextSequence;
    alphabet: LabelAlphabet;
    identity: ModelIdentity;
    readout: "label-only" | "full-vocabulary";
    batchSize: number;
    cacheMaxBytes: number;
    stateFiles: StateFileCache;
  }) {
    this.#llama = parts.llama;
    this.#ownsLlama = parts.ownsLlama;
    this.#ownsModel = parts.ownsModel;
    this.#model = parts.model;
    this.#context = parts.context;
    this.#sequence = parts.sequence;
    this.#alphabet = parts.alphabet;
    this.identity = parts.identity;
    this.#readout = parts.readout;
    this.#cacheMaxBytes = parts.cacheMaxBytes;
    this.#stateFiles = parts.stateFiles;
    this.contextSize = parts.context.contextSize;
    this.#chunked = new ChunkedSequence({
      sequence: parts.sequence,
      batchSize: parts.batchSize,
      stateFiles: parts.stateFiles,
    });
    const labelTokens = parts.alphabet.tokens as Token[];
    this.#slots = new SlotReader(parts.model.tokenizer, labelTokens, parts.batchSize);
    this.#prompts = {
      vocabulary: parts.model,
      labels: parts.alphabet.labels,
      labelTokens,
      contextSize: this.contextSize,
      preambleTokens: parts.model.tokenize(renderPrompt("", "", [], []).preamble, true),
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
    try {
      const contextSize = options.contextSize ?? Math.min(DEFAULT_CONTEXT_SIZE, model.trainContextSize);
      const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
      const cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_BYTES;
      context = await model.createContext({
        contextSize,
        batchSize,
        threads,
        sequences: 1,
        flashAttention: (options.flashAttention ?? true) && model.flashAttentionSupported,
      });
      const sequence = context.getSequence({
        contextShift: { size: 0 },
        checkpoints: { max: 64, interval: false, maxMemory: cacheMaxBytes },
      });
      const alphabet = deriveLabelAlphabet(
        (text) => model.tokenize(text, true),
        (token) => model.detokenize([token as Token], true),
        `<|im_end|>\n${ASSISTANT_OPENING}`,
      );
      const identity = await describeModel(model, options.modelPath, sha256);
      return new Scorer({
        llama,
        ownsLlama,
        ownsModel,
        model,
        context,
        sequence,
        alphabet,
        identity,
        readout: options.readout ?? "label-only",
        batchSize,
        cacheMaxBytes,
        stateFiles: new StateFileCache({
          maxBytes: cacheMaxBytes,
          parent: options.cacheDir,
          logger: options.logger,
        }),
      });
    } catch (error) {
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
    return this.#sequence.needsCheckpoints;
  }

  /** Label for the `model` field of results ({@link modelNameOf}). */
  get modelName(): string {
    return modelNameOf(this.identity);
  }

  measure(batch: DecisionBatch): PromptMeasure {
    this.#ensureOpen();
    return measurePrompts(preparePrompts(batch, this.#prompts));
  }

  async scoreBatch(batch: DecisionBatch, options: ScoreOptions = {}): Promise<BatchResult> {
    this.#ensureOpen();
    const started = performance.now();
    const prompts = preparePrompts(batch, this.#prompts);
    const tokenizeMs = (performance.now() - started) / prompts.length;
    const fullVocabulary = options.fullVocabulary ?? this.#readout === "full-vocabulary";
    const { value: results, waitedMs } = await this.#queue.run(async () => {
      this.#ensureOpen();
      const scored: DecisionResult[] = [];
      for (const [index, prompt] of prompts.entries()) {
        scored.push(await this.#scoreOne(prompt, index === 0, fullVocabulary, tokenizeMs, options.signal));
      }
      return scored;
    }, options.signal);
    for (const result of results) {
      result.timing.queue_ms = waitedMs;
      result.timing.total_ms += waitedMs;
    }
    return {
      results,
      timing: {
        queue_ms: waitedMs,
        total_ms: performance.now() - started,
        shared_prefix_tokens: Math.min(...prompts.map((prompt) => prompt.stateBoundary)),
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
    const { value } = await this.#queue.run(async () => {
      this.#ensureOpen();
      return generateChat(this.#chunked, this.#model, chat, options.signal, started);
    }, options.signal);
    return value;
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
      max_bytes: this.#cacheMaxBytes,
      snapshot_bytes: this.#sequence.disposed ? 0 : this.#sequence.checkpointsMemoryUsage,
      state_file_save_failures: this.#stateFiles.saveFailures,
      state_file_load_failures: this.#stateFiles.loadFailures,
      last_state_file_error: this.#stateFiles.lastError,
    };
  }

  /** Forgets every evaluated token, snapshot and saved state: the next call starts cold. */
  async clearCache(): Promise<void> {
    this.#ensureOpen();
    await this.#queue.run(() => this.#chunked.clear());
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    // Let the call in progress (and those queued before dispose) finish on a live context.
    await this.#queue.run(async () => undefined);
    await this.#context.dispose();
    await this.#stateFiles.dispose();
    if (this.#ownsModel) await this.#model.dispose();
    if (this.#ownsLlama) await this.#llama.dispose();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  #ensureOpen(): void {
    if (this.#disposed) throw new EngineDisposedError();
  }

  async #scoreOne(
    prompt: PreparedPrompt,
    firstOfBatch: boolean,
    fullVocabulary: boolean,
    tokenizeMs: number,
    signal: AbortSignal | undefined,
  ): Promise<DecisionResult> {
    const started = performance.now();
    throwIfAborted(signal);
    const { tokens } = prompt;
    const { reused, fromFile } = await this.#chunked.prefill(prompt, signal);
    if (firstOfBatch) {
      if (reused >= prompt.stateBoundary) this.#stats.hits += 1;
      else this.#stats.misses += 1;
      if (fromFile) this.#stats.fileHits += 1;
    }
    this.#stats.reused += reused;
    this.#stats.evaluated += tokens.length - reused;
    const readout = await this.#slots.read(
      this.#chunked,
      tokens.slice(prompt.stateBoundary),
      {
        labelTokens: prompt.labelTokens,
        temperature: prompt.question.temperature ?? 1,
        fullVocabulary,
      },
      signal,
    );
    this.#chunked.endedChunkAt(tokens.length);
    const prefillDone = performance.now();
    return decisionResultOf({
      prompt,
      readout,
      model: this.modelName,
      cachedTokens: reused,
      timing: {
        tokenize_ms: tokenizeMs,
        prefill_ms: prefillDone - started,
        readout_ms: performance.now() - prefillDone,
        queue_ms: 0,
        total_ms: performance.now() - started + tokenizeMs,
      },
    });
  }
}

const LOG_LEVELS = {
  error: LlamaLogLevel.error,
  warn: LlamaLogLevel.warn,
  info: LlamaLogLevel.info,
  debug: LlamaLogLevel.debug,
} as const;

/** Loads the llama.cpp binding, its log lines routed to the options' logger when there is one. */
async function loadBinding(options: ScorerOptions, threads: number, gpuLayers: number): Promise<Llama> {
  try {
    return await getLlama({
      gpu: gpuLayers === 0 ? false : "auto",
      build: "never",
      maxThreads: threads,
      logLevel: LOG_LEVELS[options.logLevel ?? "warn"],
      ...(options.logger === undefined ? {} : { logger: llamaLogRouter(options.logger) }),
    });
  } catch (error) {
    throw new ModelLoadError("could not load the llama.cpp binding", { cause: error });
  }
}
