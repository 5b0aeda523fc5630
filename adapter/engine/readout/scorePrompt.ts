import type { PreparedPrompt } from "../prompt/preparePrompts.js";
import type { ChunkedSequence } from "../sequence/ChunkedSequence.js";
import { throwIfAborted } from "../throwIfAborted.js";
import type { DecisionResult } from "../types.js";
import { decisionResultOf } from "./decisionResultOf.js";
import type { SlotReader } from "./SlotReader.js";

/** What a scorer counts of its evaluations since load (its `cacheStats`); {@link scorePrompt} adds to it. */
export interface ReuseCounts {
  /** Batches whose first prompt reused its whole shared part. */
  hits: number;
  /** Of those, the ones whose state came from a saved state file. */
  fileHits: number;
  /** Batches whose first prompt did not. */
  misses: number;
  /** Tokens reused rather than evaluated. */
  reused: number;
  /** Tokens evaluated. */
  evaluated: number;
}

/** What {@link scorePrompt} needs besides the sequence and the prompt. */
export interface ScorePromptOptions {
  /** Reads the answer slot's distribution after the prompt's shared part. */
  slots: SlotReader;
  /** Added to: tokens reused and evaluated; a hit or a miss when `firstOfBatch`. */
  counts: ReuseCounts;
  /** The result's `model` field. */
  model: string;
  /** The batch's first prompt: its reuse counts as the batch's hit or miss. */
  firstOfBatch: boolean;
  /** Read the whole vocabulary at the slot (reports slot mass), not the labels only. */
  fullVocabulary: boolean;
  /** This prompt's share of the time its batch took to render and tokenize, in ms. */
  tokenizeMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Scores one prepared prompt on `lane`: evaluates its tokens (reusing what the sequence or a saved
 * state holds), then reads the answer slot's probabilities over its options.
 * @throws AbortedError when `signal` aborts; what the evaluation throws.
 */
export async function scorePrompt(
  lane: ChunkedSequence,
  prompt: PreparedPrompt,
  options: ScorePromptOptions,
): Promise<DecisionResult> {
  const { counts, tokenizeMs, signal } = options;
  const started = performance.now();
  throwIfAborted(signal);
  const { tokens } = prompt;
  const { reused, fromFile } = await lane.prefill(prompt, signal);
  if (options.firstOfBatch) {
    if (reused >= prompt.sharedBoundary) counts.hits += 1;
    else counts.misses += 1;
    if (fromFile) counts.fileHits += 1;
  }
  counts.reused += reused;
  counts.evaluated += tokens.length - reused;
  const readout = await options.slots.read(
    lane,
    tokens.slice(prompt.sharedBoundary),
    {
      labelTokens: prompt.labelTokens,
      temperature: prompt.question.temperature ?? 1,
      fullVocabulary: options.fullVocabulary,
    },
    signal,
  );
  lane.endedChunkAt(tokens.length);
  const prefillDone = performance.now();
  return decisionResultOf({
    prompt,
    readout,
    model: options.model,
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
