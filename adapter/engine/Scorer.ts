import { availableParallelism } from "node:os";
import {
  type ControlledEvaluateInputItem,
  GgufFileType,
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
  type Token,
  TokenBias,
} from "node-llama-cpp";
import { commonPrefixLength } from "./commonPrefixLength.js";
import {
  AbortedError,
  EngineDisposedError,
  GpuUnavailableError,
  InvalidDecisionError,
  ModelLoadError,
  ReservedTokenError,
  TokenBudgetError,
  TooManyOptionsError,
} from "./errors.js";
import { deriveLabelAlphabet, type LabelAlphabet } from "./labelAlphabet.js";
import { pythonJsonDumps } from "./pythonJson.js";
import { ASSISTANT_OPENING, PROMPT_VERSION, type RenderedPrompt, renderPrompt } from "./renderPrompt.js";
import { SerialQueue } from "./SerialQueue.js";
import { StateFileCache } from "./StateFileCache.js";
import { sha256File } from "./sha256File.js";
import { readSlots, type SlotDistribution } from "./slotDistribution.js";
import type {
  BatchResult,
  CacheStats,
  ChatCompletionRequest,
  ChatCompletionResult,
  DecisionBatch,
  DecisionEngine,
  DecisionQuestion,
  DecisionResult,
  JsonValue,
  ModelIdentity,
  PromptMeasure,
  ReadoutInfo,
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
   * snapshots of a recurrent or hybrid model. 0 keeps no state files. Default: 512 MiB.
   */
  cacheMaxBytes?: number;
  /** Folder in which the private folder of saved state files is made. Default: the OS temporary folder. */
  cacheDir?: string;
  /** SHA-256 of the file when already known (e.g. verified against its manifest); else it is computed. */
  sha256?: string;
  /** Default readout: `label-only` (fast, the default) or `full-vocabulary` (reports slot mass). */
  readout?: "label-only" | "full-vocabulary";
  /** llama.cpp log level. Default: `warn`. */
  logLevel?: "error" | "warn" | "info" | "debug";
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

/** Logit bias that lifts the slot tokens above every other token in label-only readout. */
const SLOT_BIAS = 100;
/** Extra candidates kept beyond the slots, so that a cut slot would show up as a missing token. */
const TOP_K_MARGIN = 8;
const DEFAULT_CONTEXT_SIZE = 8192;
const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;
/** States shorter than this (beyond the preamble) are cheaper to evaluate than to save and load. */
const STATE_FILE_MIN_TOKENS = 32;

/**
 * The decision engine on node-llama-cpp: scores declared options from one forward pass, generating
 * no tokens (DESIGN.md §1). One context and one sequence own the llama.cpp state; calls are
 * serialised in arrival order.
 *
 * Evaluation always splits a prompt at the same places (end of the preamble, end of the state), so
 * the numbers do not depend on what was cached: a question scored in a batch, alone, cold or on a
 * cached state evaluates the same token chunks. Attention models rewind their KV cache to a
 * boundary; recurrent and hybrid models restore a snapshot (checkpoint) taken at the boundary.
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
  readonly #alphabet: LabelAlphabet;
  readonly #queue = new SerialQueue();
  readonly #readout: "label-only" | "full-vocabulary";
  readonly #batchSize: number;
  readonly #cacheMaxBytes: number;
  readonly #preambleTokens: Token[];
  readonly #biasBySlotCount = new Map<number, TokenBias>();
  readonly #stateFiles: StateFileCache;
  readonly #stats = { hits: 0, fileHits: 0, misses: 0, reused: 0, evaluated: 0 };
  #lastStateFileError: string | null = null;
  /**
   * Where the evaluation chunks of the live sequence ended. A prefix is reused only up to a chunk
   * end that a cold run of the new prompt would also have: llama.cpp's numbers for a position can
   * depend on which chunk computed it, so reusing a prefix cut mid-chunk would change the results.
   */
  #chunkEnds: number[] = [];
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
    this.#batchSize = parts.batchSize;
    this.#cacheMaxBytes = parts.cacheMaxBytes;
    this.#stateFiles = parts.stateFiles;
    this.contextSize = parts.context.contextSize;
    this.#preambleTokens = this.#tokenize(renderPrompt("", "", [], []).preamble);
  }

  /**
   * Loads a GGUF model, creates its context and derives its label alphabet.
   * @throws GpuUnavailableError when `gpuLayers` ≠ 0 and no GPU backend loads.
   * @throws ModelLoadError when the file cannot be loaded or its vocabulary has no A..Z labels.
   */
  static async load(options: ScorerOptions): Promise<Scorer> {
    const threads = options.threads ?? availableParallelism();
    const gpuLayers = options.gpuLayers ?? 0;
    const ownsLlama = options.llama === undefined;
    const llama =
      options.llama ??
      (await getLlama({
        gpu: gpuLayers === 0 ? false : "auto",
        build: "never",
        maxThreads: threads,
        logLevel: LOG_LEVELS[options.logLevel ?? "warn"],
      }));
    if (gpuLayers !== 0 && llama.gpu === false) {
      if (ownsLlama) await llama.dispose();
      throw new GpuUnavailableError(
        `GPU offload was requested (gpuLayers=${gpuLayers}) but no GPU backend could be loaded; refusing to run on CPU`,
      );
    }
    const ownsModel = options.model === undefined;
    let model: LlamaModel | undefined = options.model;
    try {
      const sha256Promise = options.sha256 ? Promise.resolve(options.sha256) : sha256File(options.modelPath);
      model ??= await llama.loadModel({
        modelPath: options.modelPath,
        gpuLayers: gpuLayers === -1 ? "max" : gpuLayers,
      });
      const contextSize = options.contextSize ?? Math.min(DEFAULT_CONTEXT_SIZE, model.trainContextSize);
      const batchSize = options.batchSize ?? 512;
      const cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_BYTES;
      const context = await model.createContext({
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
      const tokenize = (text: string): Token[] => model?.tokenize(text, true) ?? [];
      const alphabet = deriveLabelAlphabet(
        tokenize,
        (token) => model?.detokenize([token as Token], true) ?? "",
        `<|im_end|>\n${ASSISTANT_OPENING}`,
      );
      const identity = await describeModel(model, options.modelPath, await sha256Promise);
      const stateFiles = await StateFileCache.create(cacheMaxBytes, options.cacheDir);
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
        stateFiles,
      });
    } catch (error) {
      if (ownsModel) await model?.dispose();
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

  /** Label for the `model` field of results: the GGUF's `general.name`, else its file name. */
  get modelName(): string {
    return this.identity.name ?? this.identity.file.replace(/\.gguf$/i, "");
  }

  measure(batch: DecisionBatch): PromptMeasure {
    this.#ensureOpen();
    const prompts = this.#prepare(batch);
    const shared = Math.min(...prompts.map((prompt) => prompt.stateBoundary));
    const questionTokens = prompts.map((prompt) => prompt.tokens.length);
    const batchTokens = shared + questionTokens.reduce((sum, count) => sum + count - shared, 0);
    return { questionTokens, batchTokens };
  }

  async scoreBatch(batch: DecisionBatch, options: ScoreOptions = {}): Promise<BatchResult> {
    this.#ensureOpen();
    const started = performance.now();
    const prompts = this.#prepare(batch);
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
    const rendered = renderChat(request);
    for (const [index, message] of request.messages.entries()) {
      this.#checkReserved(`messages[${index}].content`, message.content);
    }
    const tokens = this.#tokenize(rendered);
    if (tokens.length >= this.contextSize) {
      throw new TokenBudgetError("messages", tokens.length, this.contextSize - 1, "the chat prompt");
    }
    const maxTokens = Math.min(request.maxTokens ?? 16, this.contextSize - tokens.length);
    const { value } = await this.#queue.run(async () => {
      this.#ensureOpen();
      const sequence = this.#sequence;
      const keep = Math.min(commonPrefixLength(sequence.contextTokens, tokens), tokens.length - 1);
      if (keep < sequence.nextTokenIndex) {
        await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
      }
      // Generation evaluates one chunk from `keep` on: nothing after it is a chunk end decisions can reuse.
      this.#chunkEnds = this.#chunkEnds.filter((end) => end <= keep);
      const evaluationStart = sequence.nextTokenIndex;
      const generated: Token[] = [];
      let firstTokenAt = 0;
      let finish: "stop" | "length" = "length";
      const iterator = sequence.evaluate(tokens.slice(evaluationStart), {
        temperature: request.temperature ?? 0,
      });
      try {
        for await (const token of iterator) {
          if (firstTokenAt === 0) firstTokenAt = performance.now();
          throwIfAborted(options.signal);
          if (this.#model.isEogToken(token)) {
            finish = "stop";
            break;
          }
          generated.push(token);
          if (generated.length >= maxTokens) break;
        }
      } finally {
        await iterator.return();
      }
      const done = performance.now();
      return {
        content: this.#model.detokenize(generated),
        finish_reason: finish,
        usage: {
          prompt_tokens: tokens.length,
          completion_tokens: generated.length,
          total_tokens: tokens.length + generated.length,
        },
        timing: {
          prefill_ms: (firstTokenAt || done) - started,
          generate_ms: firstTokenAt ? done - firstTokenAt : 0,
          total_ms: done - started,
        },
      } satisfies ChatCompletionResult;
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
      last_state_file_error: this.#lastStateFileError,
    };
  }

  /** Forgets every evaluated token, snapshot and saved state: the next call starts cold. */
  async clearCache(): Promise<void> {
    this.#ensureOpen();
    await this.#queue.run(async () => {
      await this.#sequence.clearHistory();
      this.#chunkEnds = [];
      await this.#stateFiles.clear();
    });
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

  #tokenize(text: string): Token[] {
    return this.#model.tokenize(text, true);
  }

  /** Validates a batch and renders and tokenizes each question's prompt. */
  #prepare(batch: DecisionBatch): PreparedPrompt[] {
    if (batch.questions.length === 0)
      throw new InvalidDecisionError("questions", "at least one question is needed");
    const ids = new Set<string>();
    for (const [index, question] of batch.questions.entries()) {
      if (ids.has(question.id)) {
        throw new InvalidDecisionError(
          `questions[${index}].id`,
          `duplicate id ${JSON.stringify(question.id)}`,
        );
      }
      ids.add(question.id);
    }
    const stateText = pythonJsonDumps(batch.state as JsonValue);
    this.#checkReserved("state", stateText);
    let stateTokens: Token[] | undefined;
    return batch.questions.map((question, index) => {
      const field = `questions[${index}]`;
      this.#checkQuestion(question, field);
      const labels = this.#alphabet.labels.slice(0, question.options.length);
      const rendered = renderPrompt(batch.state, question.question, question.options, labels);
      const tokens = this.#tokenize(rendered.text);
      if (tokens.length >= this.contextSize) {
        throw new TokenBudgetError(field, tokens.length, this.contextSize - 1, "the prompt");
      }
      stateTokens ??= this.#tokenize(rendered.statePrefix);
      const preambleBoundary = Math.min(commonPrefixLength(this.#preambleTokens, tokens), tokens.length - 1);
      const stateBoundary = Math.max(
        preambleBoundary,
        Math.min(commonPrefixLength(stateTokens, tokens), tokens.length - 1),
      );
      return {
        question,
        rendered,
        tokens,
        labels,
        labelTokens: this.#alphabet.tokens.slice(0, question.options.length) as Token[],
        preambleBoundary,
        stateBoundary,
      };
    });
  }

  #checkQuestion(question: DecisionQuestion, field: string): void {
    const count = question.options.length;
    if (count < 2)
      throw new InvalidDecisionError(`${field}.options`, `at least 2 options are needed, got ${count}`);
    if (count > this.maxOptions) throw new TooManyOptionsError(`${field}.options`, count, this.maxOptions);
    const seen = new Set<string>();
    for (const [index, option] of question.options.entries()) {
      if (seen.has(option.id)) {
        throw new InvalidDecisionError(
          `${field}.options[${index}].id`,
          `duplicate id ${JSON.stringify(option.id)}`,
        );
      }
      seen.add(option.id);
      this.#checkReserved(`${field}.options[${index}].description`, option.description);
    }
    this.#checkReserved(`${field}.question`, question.question);
    const temperature = question.temperature ?? 1;
    if (!(temperature > 0) || !Number.isFinite(temperature)) {
      throw new InvalidDecisionError(
        `${field}.temperature`,
        `must be a positive finite number, got ${temperature}`,
      );
    }
  }

  /** Rejects caller text that the vocabulary would read as a special (control) token. */
  #checkReserved(field: string, text: string): void {
    const withSpecial = this.#model.tokenize(text, true);
    const plain = this.#model.tokenize(text, false);
    if (withSpecial.length === plain.length && withSpecial.every((token, index) => token === plain[index]))
      return;
    const special = withSpecial.find((token) => this.#model.isSpecialToken(token));
    const tokenText = special === undefined ? "(special token)" : this.#model.detokenize([special], true);
    throw new ReservedTokenError(field, tokenText);
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
    const sequence = this.#sequence;
    const { tokens } = prompt;
    const boundaries = [prompt.preambleBoundary, prompt.stateBoundary];
    const matched = commonPrefixLength(sequence.contextTokens, tokens);
    // Rewind to the last boundary inside the match that the live sequence also ended a chunk at,
    // so every reused position was computed exactly as a cold run would compute it.
    const keep = boundaries
      .filter((boundary) => boundary <= matched && this.#chunkEnds.includes(boundary))
      .reduce((a, b) => Math.max(a, b), 0);
    if (keep < sequence.nextTokenIndex) {
      await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    }
    this.#chunkEnds = this.#chunkEnds.filter((end) => end <= keep);
    const stateKey = this.#stateFileKey(prompt);
    let fromFile = false;
    if (sequence.nextTokenIndex < prompt.stateBoundary && stateKey !== undefined) {
      fromFile = await this.#loadStateFile(stateKey, tokens.slice(0, prompt.stateBoundary));
      // A saved state was made by evaluating exactly these chunks.
      if (fromFile) this.#chunkEnds = [prompt.preambleBoundary, prompt.stateBoundary];
    }
    let position = sequence.nextTokenIndex;
    if (firstOfBatch) {
      if (position >= prompt.stateBoundary) this.#stats.hits += 1;
      else this.#stats.misses += 1;
      if (fromFile) this.#stats.fileHits += 1;
    }
    this.#stats.reused += position;
    this.#stats.evaluated += tokens.length - position;
    const reused = position;
    for (const boundary of boundaries) {
      if (boundary <= position) continue;
      await this.#evaluate(tokens.slice(position, boundary), signal);
      await sequence.takeCheckpoint();
      position = boundary;
      this.#chunkEnds.push(boundary);
      if (boundary === prompt.stateBoundary && stateKey !== undefined) {
        await this.#stateFiles.store(
          stateKey,
          boundary,
          async (path) => (await sequence.saveStateToFile(path)).fileSize,
        );
      }
    }
    const distribution = await this.#evaluateAndRead(tokens.slice(position), prompt, fullVocabulary, signal);
    this.#chunkEnds.push(tokens.length);
    const prefillDone = performance.now();
    const readout = this.#toResult(prompt, distribution);
    const done = performance.now();
    return {
      ...readout,
      input_tokens: tokens.length,
      evaluated_tokens: tokens.length - reused,
      cached_tokens: reused,
      timing: {
        tokenize_ms: tokenizeMs,
        prefill_ms: prefillDone - started,
        readout_ms: done - prefillDone,
        queue_ms: 0,
        total_ms: done - started + tokenizeMs,
      },
    };
  }

  /** Key of the prompt's state in the saved-state cache; undefined when the state is too short to be worth a file. */
  #stateFileKey(prompt: PreparedPrompt): string | undefined {
    if (prompt.stateBoundary - prompt.preambleBoundary < STATE_FILE_MIN_TOKENS) return undefined;
    return StateFileCache.keyOf(prompt.tokens.slice(0, prompt.stateBoundary));
  }

  /**
   * Replaces the sequence's state with a saved one holding exactly `stateTokens`.
   * @returns whether it was loaded; a file that fails to load or holds other tokens is dropped.
   */
  async #loadStateFile(key: string, stateTokens: readonly Token[]): Promise<boolean> {
    const saved = this.#stateFiles.get(key);
    if (saved === undefined) return false;
    const sequence = this.#sequence;
    // Dropping the history also drops snapshots of the previous state, which must never be
    // restored into this one.
    await sequence.clearHistory();
    this.#chunkEnds = [];
    try {
      await sequence.loadStateFromFile(saved.path, { acceptRisk: true });
    } catch (error) {
      // A lost or unreadable file only costs the evaluation it would have saved; keep the reason.
      this.#lastStateFileError = error instanceof Error ? error.message : String(error);
      await sequence.clearHistory();
      await this.#stateFiles.drop(key);
      return false;
    }
    if (commonPrefixLength(sequence.contextTokens, stateTokens) !== stateTokens.length) {
      await sequence.clearHistory();
      await this.#stateFiles.drop(key);
      return false;
    }
    await sequence.takeCheckpoint();
    return true;
  }

  /** Evaluates tokens in batch-size chunks, checking the signal between chunks. */
  async #evaluate(tokens: Token[], signal: AbortSignal | undefined): Promise<void> {
    for (let start = 0; start < tokens.length; start += this.#batchSize) {
      throwIfAborted(signal);
      await this.#sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(start, start + this.#batchSize));
    }
  }

  async #evaluateAndRead(
    suffix: Token[],
    prompt: PreparedPrompt,
    fullVocabulary: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ slots: SlotDistribution; full: boolean }> {
    // All but the last chunk are plain evaluation; the last chunk asks for the next-token distribution.
    const lastChunkStart = Math.max(0, suffix.length - (((suffix.length - 1) % this.#batchSize) + 1));
    await this.#evaluate(suffix.slice(0, lastChunkStart), signal);
    throwIfAborted(signal);
    const lastChunk = suffix.slice(lastChunkStart);
    const temperature = prompt.question.temperature ?? 1;
    if (!fullVocabulary) {
      const slots = await this.#readLabelOnly(lastChunk, prompt.labelTokens, temperature);
      if (slots !== undefined) return { slots, full: false };
      // A slot fell out of the top-k candidates: read the whole distribution instead.
      const sequence = this.#sequence;
      await sequence.eraseContextTokenRanges([
        { start: sequence.nextTokenIndex - lastChunk.length, end: sequence.nextTokenIndex },
      ]);
    }
    const distribution = await this.#readDistribution(lastChunk, { probabilities: true });
    const slots = readSlots(distribution, prompt.labelTokens, false, temperature);
    if (slots === undefined) throw new ModelLoadError("the full next-token distribution lacks a slot token");
    return { slots, full: true };
  }

  async #readLabelOnly(
    chunk: Token[],
    slotTokens: Token[],
    temperature: number,
  ): Promise<SlotDistribution | undefined> {
    const distribution = await this.#readDistribution(chunk, {
      probabilities: true,
      options: {
        temperature: 1,
        topK: slotTokens.length + TOP_K_MARGIN,
        topP: 1,
        minP: 0,
        tokenBias: this.#slotBias(slotTokens.length),
      },
    });
    return readSlots(distribution, slotTokens, true, temperature);
  }

  async #readDistribution(
    chunk: Token[],
    generateNext: GenerateNextOptions,
  ): Promise<ReadonlyMap<number, number>> {
    const last = chunk.at(-1);
    if (last === undefined)
      throw new InvalidDecisionError("question", "the prompt has no token to read after");
    const output = await this.#sequence.controlledEvaluate([...chunk.slice(0, -1), [last, { generateNext }]]);
    const probabilities = output.at(-1)?.next.probabilities;
    if (probabilities === undefined)
      throw new ModelLoadError("llama.cpp returned no next-token distribution");
    return probabilities;
  }

  #slotBias(count: number): TokenBias {
    let bias = this.#biasBySlotCount.get(count);
    if (bias === undefined) {
      bias = new TokenBias(this.#model.tokenizer);
      for (const token of this.#alphabet.tokens.slice(0, count))
        bias.set(token as Token, { logit: SLOT_BIAS });
      this.#biasBySlotCount.set(count, bias);
    }
    return bias;
  }

  #toResult(
    prompt: PreparedPrompt,
    distribution: { slots: SlotDistribution; full: boolean },
  ): Omit<DecisionResult, "input_tokens" | "evaluated_tokens" | "cached_tokens" | "timing"> {
    const { slots, full } = distribution;
    const readout: ReadoutInfo = {
      mode: full ? "full-vocabulary" : "label-only",
      option_logits: full
        ? "log-probability (full vocabulary, position of the answer)"
        : "log-probability relative to the slot set (softmax over slots)",
      labels: prompt.labels,
      label_tokens: prompt.labelTokens,
      temperature: prompt.question.temperature ?? 1,
      slot_mass: full ? slots.slotMass : null,
    };
    return {
      id: prompt.question.id,
      option_ids: prompt.question.options.map((option) => option.id),
      probabilities: slots.probabilities,
      option_logits: slots.scores,
      prompt_sha256: prompt.rendered.sha256,
      prompt_version: PROMPT_VERSION,
      readout,
      model: this.modelName,
    };
  }
}

interface PreparedPrompt {
  question: DecisionQuestion;
  rendered: RenderedPrompt;
  tokens: Token[];
  labels: string[];
  labelTokens: Token[];
  /** Tokens of the preamble (identical in every prompt). */
  preambleBoundary: number;
  /** Tokens up to the end of the state (identical for every question on this state). */
  stateBoundary: number;
}

type ControlledItem = Extract<ControlledEvaluateInputItem, readonly unknown[]>;
type GenerateNextOptions = NonNullable<ControlledItem[1]["generateNext"]>;

const LOG_LEVELS = {
  error: LlamaLogLevel.error,
  warn: LlamaLogLevel.warn,
  info: LlamaLogLevel.info,
  debug: LlamaLogLevel.debug,
} as const;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
}

/** ChatML rendering of a chat request, thinking disabled, as the standard path's template does. */
function renderChat(request: ChatCompletionRequest): string {
  const turns = request.messages.map(
    (message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`,
  );
  return `${turns.join("")}${ASSISTANT_OPENING}`;
}

async function describeModel(model: LlamaModel, path: string, sha256: string): Promise<ModelIdentity> {
  const { stat } = await import("node:fs/promises");
  const { basename } = await import("node:path");
  const metadata = model.fileInfo.metadata;
  const fileType = metadata.general.file_type;
  const tokens = metadata.tokenizer?.ggml?.tokens;
  return {
    file: basename(path),
    size_bytes: (await stat(path)).size,
    sha256,
    architecture: String(metadata.general.architecture),
    name: metadata.general.name ?? null,
    parameter_count: model.fileInsights.totalParameters,
    quantization:
      fileType === undefined
        ? "unknown"
        : (GgufFileType[fileType] ?? String(fileType)).replace(/^(MOSTLY|ALL)_/, ""),
    vocab_size: Array.isArray(tokens) ? tokens.length : 0,
    train_context_size: model.trainContextSize,
    state_kind: model.fileInsights.isRecurrent || model.fileInsights.isHybrid ? "recurrent" : "attention",
  };
}
