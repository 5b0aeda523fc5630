/**
 * A deterministic stand-in for the decision engine, for the HTTP adapter's unit tests: scores are
 * a hash of (state, question, option description), calls are serialised like the real engine's,
 * and tests can slow it down, make it fail, and see what it was asked.
 */
import { createHash } from "node:crypto";
import { AbortedError, EngineDisposedError } from "../../adapter/engine/errors.js";
import { SerialQueue } from "../../adapter/engine/sequence/SerialQueue.js";
import type {
  BatchResult,
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
} from "../../adapter/engine/types.js";

export interface FakeEngineOptions {
  maxOptions?: number;
  contextSize?: number;
  /** Time each scoring call takes, in milliseconds (aborts end it early). Default 0. */
  delayMs?: number;
}

/** Deterministic engine double: see the file comment. */
export class FakeEngine implements DecisionEngine {
  readonly identity: ModelIdentity = {
    file: "fake.gguf",
    size_bytes: 1,
    sha256: "0".repeat(64),
    architecture: "fake",
    name: "fake-model",
    parameter_count: 1,
    quantization: "F32",
    vocab_size: 100,
    train_context_size: 4096,
    state_kind: "attention",
  };
  readonly promptVersion = "direct-options-v1";
  readonly maxOptions: number;
  readonly contextSize: number;
  delayMs: number;
  /** Thrown by the next scoring or completion call, then cleared. */
  failNext: unknown;
  /** Every batch scored, in order. */
  readonly scored: DecisionBatch[] = [];
  /** Signals of calls that were aborted while running. */
  aborted = 0;
  /** Calls running right now, and the most seen at once. */
  running = 0;
  maxRunning = 0;
  disposed = false;
  readonly #queue = new SerialQueue();

  constructor(options: FakeEngineOptions = {}) {
    this.maxOptions = options.maxOptions ?? 26;
    this.contextSize = options.contextSize ?? 4096;
    this.delayMs = options.delayMs ?? 0;
  }

  measure(batch: DecisionBatch): PromptMeasure {
    const prefix = 20 + tokens(JSON.stringify(batch.state));
    const suffixes = batch.questions.map((q) => tokens(q.question + JSON.stringify(q.options)));
    return {
      questionTokens: suffixes.map((suffix) => prefix + suffix),
      batchTokens: prefix + suffixes.reduce((sum, suffix) => sum + suffix, 0),
    };
  }

  async prepare(batch: DecisionBatch): Promise<PreparedBatch> {
    return { batch, measure: this.measure(batch) };
  }

  async scoreBatch(batch: DecisionBatch, options: ScoreOptions = {}): Promise<BatchResult> {
    if (this.disposed) throw new EngineDisposedError();
    const started = performance.now();
    const { value, waitedMs } = await this.#queue.run(async () => {
      this.running += 1;
      this.maxRunning = Math.max(this.maxRunning, this.running);
      try {
        await this.#work(options.signal);
        const failure = this.failNext;
        if (failure !== undefined) {
          this.failNext = undefined;
          throw failure;
        }
        this.scored.push(structuredClone(batch));
        return batch.questions.map((question) => this.#result(batch, question));
      } finally {
        this.running -= 1;
      }
    }, options.signal);
    const measure = this.measure(batch);
    return {
      results: value,
      timing: {
        queue_ms: waitedMs,
        total_ms: performance.now() - started,
        shared_prefix_tokens:
          (measure.questionTokens[0] ?? 0) - tokens(JSON.stringify(batch.questions[0]?.options ?? [])),
      },
    };
  }

  async complete(
    request: ChatCompletionRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<ChatCompletionResult> {
    const { value } = await this.#queue.run(async () => {
      await this.#work(options.signal);
      const failure = this.failNext;
      if (failure !== undefined) {
        this.failNext = undefined;
        throw failure;
      }
      const last = request.messages.at(-1)?.content ?? "";
      const words = `echo ${last}`.split(" ");
      const max = request.maxTokens ?? 16;
      const content = words.slice(0, max).join(" ");
      const promptTokens = tokens(JSON.stringify(request.messages));
      const completionTokens = Math.min(words.length, max);
      return {
        content,
        finish_reason: words.length > max ? ("length" as const) : ("stop" as const),
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
        timing: { prefill_ms: 1, generate_ms: 1, total_ms: 2 },
      };
    }, options.signal);
    return value;
  }

  cacheStats(): CacheStats {
    return {
      hits: 0,
      state_file_hits: 0,
      misses: 0,
      reused_tokens: 0,
      evaluated_tokens: 0,
      state_files: 0,
      state_file_bytes: 0,
      max_bytes: 0,
      max_bytes_source: "explicit",
      max_bytes_sized_from: null,
      snapshot_bytes: 0,
      state_file_save_failures: 0,
      state_file_load_failures: 0,
      last_state_file_error: null,
    };
  }

  async dispose(): Promise<void> {
    await this.#queue.run(async () => undefined);
    this.disposed = true;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  async #work(signal: AbortSignal | undefined): Promise<void> {
    if (this.delayMs <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, this.delayMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        this.aborted += 1;
        reject(new AbortedError("aborted while scoring", { cause: signal?.reason }));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #result(batch: DecisionBatch, question: DecisionBatch["questions"][number]): DecisionResult {
    const logits = question.options.map((option) =>
      score(batch.state, question.question, option.description),
    );
    const max = Math.max(...logits);
    const exps = logits.map((logit) => Math.exp(logit - max));
    const total = exps.reduce((sum, value) => sum + value, 0);
    const measure = this.measure({ state: batch.state, questions: [question] });
    return {
      id: question.id,
      option_ids: question.options.map((option) => option.id),
      probabilities: exps.map((value) => value / total),
      option_logits: logits,
      prompt_sha256: sha256(JSON.stringify([batch.state, question])),
      prompt_version: this.promptVersion,
      readout: {
        mode: "label-only",
        option_logits: "log-probability relative to the slot set (softmax over slots)",
        labels: question.options.map((_option, index) => String.fromCharCode(65 + index)),
        label_tokens: question.options.map((_option, index) => index),
        temperature: question.temperature ?? 1,
        slot_mass: null,
      },
      input_tokens: measure.questionTokens[0] ?? 0,
      evaluated_tokens: measure.questionTokens[0] ?? 0,
      cached_tokens: 0,
      timing: { tokenize_ms: 0, prefill_ms: 0, readout_ms: 0, queue_ms: 0, total_ms: 0 },
      model: "fake-model",
    };
  }
}

/** The fake's score of one option: a deterministic function of what the model would read. */
export function score(state: unknown, question: string, description: string): number {
  const digest = createHash("sha256")
    .update(JSON.stringify([state, question, description]))
    .digest();
  return (digest.readUInt32BE(0) / 0xffffffff) * 4 - 2;
}

function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
