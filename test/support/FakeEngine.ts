import type {
  BatchResult,
  CacheStats,
  ChatCompletionResult,
  DecisionBatch,
  DecisionEngine,
  DecisionResult,
  ModelIdentity,
  PromptMeasure,
} from "../../adapter/engine/types.js";

/**
 * A deterministic stand-in for the scorer in unit tests: option i of n gets probability
 * proportional to n − i (so the first option always wins), and every call is recorded.
 */
export class FakeEngine implements DecisionEngine {
  readonly identity: ModelIdentity = {
    file: "fake.gguf",
    size_bytes: 1,
    sha256: "0".repeat(64),
    architecture: "fake",
    name: "fake-model",
    parameter_count: 0,
    quantization: "F32",
    vocab_size: 0,
    train_context_size: 4096,
    state_kind: "attention",
  };
  readonly maxOptions = 255;
  readonly promptVersion = "direct-options-v1";
  readonly contextSize = 4096;
  readonly calls: DecisionBatch[] = [];

  async scoreBatch(batch: DecisionBatch): Promise<BatchResult> {
    this.calls.push(batch);
    const results = batch.questions.map((question): DecisionResult => {
      const n = question.options.length;
      const weights = question.options.map((_, index) => n - index);
      const total = weights.reduce((a, b) => a + b, 0);
      const probabilities = weights.map((weight) => weight / total);
      return {
        id: question.id,
        option_ids: question.options.map((option) => option.id),
        probabilities,
        option_logits: probabilities.map(Math.log),
        prompt_sha256: "f".repeat(64),
        prompt_version: this.promptVersion,
        readout: {
          mode: "label-only",
          option_logits: "log-probability relative to the slot set (softmax over slots)",
          labels: [],
          label_tokens: [],
          temperature: 1,
          slot_mass: null,
        },
        input_tokens: 100,
        evaluated_tokens: 100,
        cached_tokens: 0,
        timing: { tokenize_ms: 0, prefill_ms: 0, readout_ms: 0, queue_ms: 0, total_ms: 0 },
        model: "fake-model",
      };
    });
    return { results, timing: { queue_ms: 0, total_ms: 0, shared_prefix_tokens: 60 } };
  }

  measure(batch: DecisionBatch): PromptMeasure {
    return { questionTokens: batch.questions.map(() => 100), batchTokens: 60 + 40 * batch.questions.length };
  }

  async complete(): Promise<ChatCompletionResult> {
    return {
      content: "A",
      finish_reason: "stop",
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
      timing: { prefill_ms: 0, generate_ms: 0, total_ms: 0 },
    };
  }

  cacheStats(): CacheStats {
    return {
      hits: 0,
      misses: 0,
      reused_tokens: 0,
      evaluated_tokens: 0,
      snapshot_bytes: 0,
      max_snapshot_bytes: 0,
    };
  }

  async dispose(): Promise<void> {}

  async [Symbol.asyncDispose](): Promise<void> {}
}
