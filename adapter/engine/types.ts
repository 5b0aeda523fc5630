/**
 * Shared types of the decision engine: what goes in (a state, questions and their options) and what
 * comes out (a distribution over the declared options), independent of any wire format.
 */

import type { JsonText } from "../../contract/wire/JsonText.js";
import type { JsonObject, JsonValue } from "../../contract/wire/types.js";

export type { JsonObject, JsonValue } from "../../contract/wire/types.js";

/**
 * The evidence a decision is about: free text, or a JSON object or array shown to the model as JSON,
 * or JSON text ({@link JsonText}) shown exactly as Python's `json.dumps(json.loads(text))` prints it
 * (key order as written, `2.0` kept a float: byte-compatible with SemIf for every state).
 */
export type DecisionState = string | JsonObject | JsonValue[] | JsonText;

/**
 * A prompt layout (the `prompt_version` of results): `direct-options-v1` puts the state first
 * (SemIf's format, the default), `question-first-v1` puts the criterion and options first so that
 * every item asked one question shares them (see `renderPrompt` and PROMPTS.md).
 */
export type PromptLayout = "direct-options-v1" | "question-first-v1";

/** One declared option. The id is returned to the caller; only the description is shown to the model. */
export interface DecisionOption {
  id: string;
  description: string;
}

/** One question about a state: a criterion and the options it is answered with. */
export interface DecisionQuestion {
  /** Caller's id of the question (the SemIf decision id, or the System One question id). */
  id: string;
  /** The criterion the model applies to the evidence. */
  question: string;
  /** Two or more options with unique ids, in the order their answer slots (A, B, …) are assigned. */
  options: DecisionOption[];
  /** Temperature applied to the option scores before the softmax (from calibration). Default 1. */
  temperature?: number;
  /**
   * Prompt layout of this question. `auto` picks, from token counts, the cheaper of the two for
   * the batch (state first: the state once plus each question's own part; question first: the
   * state once per question, its question part assumed cached). Default `direct-options-v1`.
   */
  layout?: PromptLayout | "auto";
  /**
   * `cyclic`: score the question under cyclic rotations of its options (all n, or
   * {@link DecisionQuestion.debiasRotations} of them evenly spaced) on the same state and average
   * each option's probability, removing most of the option-position bias; the result reports the
   * spread across rotations (`debias.order_sensitivity`). Costs one question part per rotation.
   */
  debias?: "cyclic";
  /** With `debias: "cyclic"`: how many rotations, 1 to the number of options. Default: all. */
  debiasRotations?: number;
}

/** Several questions about one state; the state is evaluated once for all of them. */
export interface DecisionBatch {
  state: DecisionState;
  questions: DecisionQuestion[];
}

/** Time spent in each phase of one question, in milliseconds. */
export interface DecisionTiming {
  /** Rendering the prompt and turning it into tokens. */
  tokenize_ms: number;
  /** Evaluating the tokens that were not already in the model's state (shared prefix included once). */
  prefill_ms: number;
  /** Reading and normalising the slot distribution. */
  readout_ms: number;
  /** Waiting for the model context (other requests were being scored). */
  queue_ms: number;
  total_ms: number;
}

/** Identity of the loaded model, reported with every result. */
export interface ModelIdentity {
  /** File name of the GGUF. */
  file: string;
  /** Size of the GGUF in bytes. */
  size_bytes: number;
  /** SHA-256 of the GGUF file, hex. */
  sha256: string;
  /** `general.architecture` of the GGUF, e.g. `qwen3`, `qwen35`, `llama`. */
  architecture: string;
  /** `general.name` when present. */
  name: string | null;
  parameter_count: number;
  /** Dominant tensor type, e.g. `Q8_0`, `Q4_K_M` (from `general.file_type`) or `F32`. */
  quantization: string;
  vocab_size: number;
  /** Context size the model was trained with. */
  train_context_size: number;
  /** Whether the model's state can be truncated (attention) or must be snapshotted (recurrent/hybrid). */
  state_kind: "attention" | "recurrent";
}

/** The answer to one question, in the SemIf result shape; arrays are in option order. */
export interface DecisionResult {
  id: string;
  option_ids: string[];
  /** Softmax over the declared options' scores (after temperature); sums to 1. */
  probabilities: number[];
  /**
   * Per option, the log-probability of its answer label as the next token over the model's full
   * vocabulary. node-llama-cpp exposes probabilities rather than raw logits; these differ from the
   * raw logits by one constant per question, so differences between them equal raw-logit
   * differences. `readout` says exactly what was returned.
   */
  option_logits: number[];
  prompt_sha256: string;
  prompt_version: string;
  /** How the scores were read (see {@link ReadoutInfo}). */
  readout: ReadoutInfo;
  /** Tokens of this question's whole prompt (state included, whether or not it was cached). */
  input_tokens: number;
  /** Tokens that had to be evaluated for this question (0 reused tokens counted). */
  evaluated_tokens: number;
  /** Tokens reused from already evaluated state (shared prefix or the cross-request cache). */
  cached_tokens: number;
  timing: DecisionTiming;
  model: string;
  /** Present when the question was debiased: how, and how much its options' order mattered. */
  debias?: DebiasInfo;
}

/**
 * How a debiased answer was made. Its `probabilities` are, per option id, the mean over the
 * rotations; `option_logits` their natural logarithms; the token counts and timings are summed over
 * the rotations' prompts, and `prompt_sha256` is that of the prompt in the given order.
 */
export interface DebiasInfo {
  method: "cyclic";
  /** Rotations scored (offsets ⌊j·n/k⌋ of the given order, j = 0 … k−1). */
  rotations: number;
  /**
   * The order sensitivity: the largest, over the options, of the spread (max − min) of the
   * option's probability across the rotations. 0 when no rotation changed any probability.
   */
  order_sensitivity: number;
  /** SHA-256 of each rotation's prompt, in rotation order. */
  prompt_sha256s: string[];
}

/** How option scores were obtained. */
export interface ReadoutInfo {
  /** `label-only`: slot tokens biased and renormalised; `full-vocabulary`: the whole next-token softmax. */
  mode: "label-only" | "full-vocabulary";
  /** What `option_logits` holds. */
  option_logits:
    | "log-probability (full vocabulary, position of the answer)"
    | "log-probability relative to the slot set (softmax over slots)"
    | "log of the probability averaged over option rotations";
  /** The answer labels, in option order. */
  labels: string[];
  /** Token id of each label, in option order. */
  label_tokens: number[];
  /** Temperature applied to the slot scores. */
  temperature: number;
  /** Probability mass of the full vocabulary on the declared slots (full-vocabulary mode only). */
  slot_mass: number | null;
}

/**
 * The room a default cache bound is sized from, measured when the engine loads (after the model
 * and its context are allocated). Reported as is in {@link CacheStats.max_bytes_sized_from}.
 */
export interface CacheSpace {
  /** The folder whose file system was measured: where the state files go, or its nearest existing parent. */
  folder: string;
  /** Bytes of that file system free to this process (`statfs` available blocks); on a tmpfs this is memory. */
  free_disk_bytes: number;
  /** Memory still available to this process (`process.availableMemory()`: respects a container's limit). */
  available_memory_bytes: number;
  /** Memory of the machine, or the container's limit when it has a lower one. */
  total_memory_bytes: number;
}

/** The bound of the cross-request cache in use, and how it was chosen. */
export interface CacheBound {
  /** The bound in bytes (0 keeps no state files). */
  bytes: number;
  /** `explicit`: set by the caller (`cacheMaxBytes`); `machine`: sized by `defaultCacheBytes`. */
  source: "explicit" | "machine";
  /** The measured room when sized from the machine; null when explicit. */
  sized_from: CacheSpace | null;
}

/** Counters of the cross-request cache. */
export interface CacheStats {
  /** Requests whose state was already evaluated (live in the context, or loaded from a saved state). */
  hits: number;
  /** Of the hits, those served by loading a saved state file. */
  state_file_hits: number;
  /** Requests whose state had to be evaluated. */
  misses: number;
  /** Tokens reused instead of evaluated, in total. */
  reused_tokens: number;
  /** Tokens evaluated, in total. */
  evaluated_tokens: number;
  /** Saved states held now, and their bytes on disk. */
  state_files: number;
  state_file_bytes: number;
  /** The bound of the saved states (and, separately, of in-memory snapshots), in bytes. */
  max_bytes: number;
  /** Where {@link CacheStats.max_bytes} came from ({@link CacheBound.source}). */
  max_bytes_source: CacheBound["source"];
  /** What the machine had when `max_bytes` was sized from it; null when it was set explicitly. */
  max_bytes_sized_from: CacheSpace | null;
  /** Bytes of in-memory snapshots (checkpoints) of a recurrent or hybrid model, now. */
  snapshot_bytes: number;
  /** Saves of a state file that failed (disk full, folder removed, read-only): the answers were still returned. */
  state_file_save_failures: number;
  /** Saved states that failed to load: each was dropped and its state evaluated instead. */
  state_file_load_failures: number;
  /**
   * The error of the last failed save or load of a state file, as thrown (its `cause` kept); null
   * when none failed. Not JSON: write it with `cacheStatsToJson`.
   */
  last_state_file_error: Error | null;
}

/** Per-call options of scoring. */
export interface ScoreOptions {
  /** Aborts the call; queued calls leave the queue, a running one stops at the next evaluation step. */
  signal?: AbortSignal;
  /**
   * The batch's prompts, from {@link DecisionEngine.prepare} on this very batch object: scored as
   * prepared, not rendered and tokenized again. Default: prepared by the call.
   */
  prepared?: PreparedBatch;
  /** Read the whole next-token distribution rather than the slot tokens only (slower; reports slot mass). */
  fullVocabulary?: boolean;
}

/** The outcome of a batch: one result per question, in request order. */
export interface BatchResult {
  results: DecisionResult[];
  timing: {
    queue_ms: number;
    total_ms: number;
    /** Tokens of the state prefix evaluated (or reused) once for all questions. */
    shared_prefix_tokens: number;
  };
}

/** One chat message of the standard (OpenAI chat completions) path. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A chat completion answered by generation, as the AWS llama.cpp container's standard path does. */
export interface ChatCompletionRequest {
  messages: ChatMessage[];
  /** Most tokens to generate. Default 16. */
  maxTokens?: number;
  /** Sampling temperature; 0 (the default) is greedy. */
  temperature?: number;
}

export interface ChatCompletionResult {
  content: string;
  finish_reason: "stop" | "length";
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  timing: { prefill_ms: number; generate_ms: number; total_ms: number };
}

/** Token counts of a batch's prompts, for budget checks before scoring. */
export interface PromptMeasure {
  /** Tokens of each question's whole prompt (its longest, when debiased), in question order. */
  questionTokens: number[];
  /**
   * Tokens the batch evaluates when nothing is cached: every prompt in evaluation order, less the
   * prefix it shares with the prompt before it (the state once for questions on it).
   */
  batchTokens: number;
}

/**
 * A batch rendered and tokenized ({@link DecisionEngine.prepare}): its token counts, and its prompts
 * kept by the engine for {@link ScoreOptions.prepared}.
 */
export interface PreparedBatch {
  /** The batch it was prepared from (scoring another batch with it prepares that one afresh). */
  readonly batch: DecisionBatch;
  readonly measure: PromptMeasure;
}

/**
 * What the HTTP adapter, the functions and the batch CLI need of a loaded decision model.
 * {@link Scorer} is the implementation on node-llama-cpp.
 */
export interface DecisionEngine extends AsyncDisposable {
  readonly identity: ModelIdentity;
  /** Most options one question may have: the size of the verified label alphabet. */
  readonly maxOptions: number;
  /**
   * The default prompt version, `direct-options-v1`; a question may ask for another layout, and
   * each result names the one it was rendered with.
   */
  readonly promptVersion: string;
  /** Context size of the loaded context: no prompt may be longer. */
  readonly contextSize: number;
  /** Score every question of a batch; the state is evaluated once. Calls are serialised. */
  scoreBatch(batch: DecisionBatch, options?: ScoreOptions): Promise<BatchResult>;
  /** Count the tokens of a batch's prompts without evaluating anything. */
  measure(batch: DecisionBatch): PromptMeasure;
  /**
   * What {@link measure} does, without holding the event loop where the engine can (the scorer's
   * `promptWorker` renders and tokenizes on a worker thread); the prompts are kept for
   * {@link ScoreOptions.prepared}. Throws what `measure` throws (as a rejection), or AbortedError.
   */
  prepare(batch: DecisionBatch, options?: { signal?: AbortSignal }): Promise<PreparedBatch>;
  /** Answer a chat request by generating text (the standard path), serialised with scoring. */
  complete(request: ChatCompletionRequest, options?: { signal?: AbortSignal }): Promise<ChatCompletionResult>;
  cacheStats(): CacheStats;
  dispose(): Promise<void>;
}
