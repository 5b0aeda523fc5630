import type { LlamaContext, LlamaModel } from "node-llama-cpp";
import { equalLengthBatching } from "./equalLengthBatching.js";

/** Options of {@link createScoringContext}: the scorer's own, with its defaults applied. */
export interface ScoringContextOptions {
  /** Context size in tokens. */
  contextSize: number;
  /** Tokens evaluated per decode step. */
  batchSize: number;
  /** CPU threads for evaluation. */
  threads: number;
  /** Sequences in the context (a positive integer). */
  parallelSequences: number;
  /** How parallel sequences share decode steps; `exact` unless `merged`. */
  parallelBatching?: "exact" | "merged";
  /** Use flash attention when the model supports it. */
  flashAttention: boolean;
}

/**
 * Creates the one context the scorer evaluates on, with `parallelSequences` sequences: with more
 * than one, a decode step merges only chunks of equal length ({@link equalLengthBatching}) unless
 * `merged` is asked for (node-llama-cpp's `maximumParallelism`).
 * @throws RangeError when `parallelSequences` is not a positive integer; what node-llama-cpp throws.
 */
export async function createScoringContext(
  model: LlamaModel,
  options: ScoringContextOptions,
): Promise<LlamaContext> {
  const { parallelSequences } = options;
  if (!Number.isInteger(parallelSequences) || parallelSequences < 1) {
    throw new RangeError(`parallelSequences must be a positive integer, got ${parallelSequences}`);
  }
  const batching =
    parallelSequences === 1
      ? {}
      : {
          batching: {
            itemPrioritizationStrategy:
              options.parallelBatching === "merged" ? ("maximumParallelism" as const) : equalLengthBatching,
          },
        };
  return model.createContext({
    contextSize: options.contextSize,
    batchSize: options.batchSize,
    threads: options.threads,
    sequences: parallelSequences,
    ...batching,
    flashAttention: options.flashAttention && model.flashAttentionSupported,
  });
}
