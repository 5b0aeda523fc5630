import { type ControlledEvaluateInputItem, type Token, TokenBias, type Tokenizer } from "node-llama-cpp";
import { EngineFailureError } from "../errors.js";
import type { ChunkedSequence } from "../sequence/ChunkedSequence.js";
import { throwIfAborted } from "../throwIfAborted.js";
import { readSlots, type SlotDistribution } from "./slotDistribution.js";

/** Logit bias that lifts the slot tokens above every other token in label-only readout. */
const SLOT_BIAS = 100;
/** Extra candidates kept beyond the slots, so that a cut slot would show up as a missing token. */
const TOP_K_MARGIN = 8;

/** The slot distribution of one prompt and how it was read. */
export interface SlotReadout {
  slots: SlotDistribution;
  /** Whether the whole next-token distribution was read (else the biased slot tokens only). */
  full: boolean;
}

/** What a slot reading needs to know about the prompt it finishes. */
export interface SlotQuery {
  /** The token of each answer slot, in option order. */
  labelTokens: readonly Token[];
  /** Applied to the slot scores before the softmax. */
  temperature: number;
  /** Read the whole distribution rather than the slot tokens only. */
  fullVocabulary: boolean;
}

/**
 * Reads the answer-slot distribution after a prompt's last chunk (docs/engine.md, Readout): the last
 * chunk's final token asks for the next-token probabilities, either label-only (slot tokens
 * biased, top n+8 kept, renormalised; falls back to the full distribution if a slot is ever cut)
 * or over the full vocabulary (slot mass reported).
 */
export class SlotReader {
  readonly #tokenizer: Tokenizer;
  readonly #slotTokens: readonly Token[];
  readonly #batchSize: number;
  readonly #biasBySlotCount = new Map<number, TokenBias>();

  /**
   * @param tokenizer the model's tokenizer (token biases are built on it).
   * @param slotTokens the label alphabet's tokens, in slot order.
   */
  constructor(tokenizer: Tokenizer, slotTokens: readonly Token[], batchSize: number) {
    this.#tokenizer = tokenizer;
    this.#slotTokens = slotTokens;
    this.#batchSize = batchSize;
  }

  /**
   * Evaluates `suffix` (all but its last chunk plainly) and reads the slots after it.
   * @throws AbortedError when the signal aborts between chunks.
   * @throws EngineFailureError when llama.cpp returns no distribution, or one without a slot token.
   */
  async read(
    chunked: ChunkedSequence,
    suffix: readonly Token[],
    query: SlotQuery,
    signal?: AbortSignal,
  ): Promise<SlotReadout> {
    const lastChunkStart = Math.max(0, suffix.length - (((suffix.length - 1) % this.#batchSize) + 1));
    await chunked.evaluate(suffix.slice(0, lastChunkStart), signal);
    throwIfAborted(signal);
    const sequence = chunked.sequence;
    const lastChunk = suffix.slice(lastChunkStart);
    if (!query.fullVocabulary) {
      const distribution = await readDistribution(chunked, lastChunk, {
        probabilities: true,
        options: {
          temperature: 1,
          topK: query.labelTokens.length + TOP_K_MARGIN,
          topP: 1,
          minP: 0,
          tokenBias: this.#slotBias(query.labelTokens.length),
        },
      });
      const slots = readSlots(distribution, query.labelTokens, true, query.temperature);
      if (slots !== undefined) return { slots, full: false };
      // A slot fell out of the top-k candidates: read the whole distribution instead.
      await sequence.eraseContextTokenRanges([
        { start: sequence.nextTokenIndex - lastChunk.length, end: sequence.nextTokenIndex },
      ]);
    }
    const distribution = await readDistribution(chunked, lastChunk, { probabilities: true });
    const slots = readSlots(distribution, query.labelTokens, false, query.temperature);
    if (slots === undefined)
      throw new EngineFailureError("the full next-token distribution lacks a slot token");
    return { slots, full: true };
  }

  #slotBias(count: number): TokenBias {
    let bias = this.#biasBySlotCount.get(count);
    if (bias === undefined) {
      bias = new TokenBias(this.#tokenizer);
      for (const token of this.#slotTokens.slice(0, count)) bias.set(token, { logit: SLOT_BIAS });
      this.#biasBySlotCount.set(count, bias);
    }
    return bias;
  }
}

type ControlledItem = Extract<ControlledEvaluateInputItem, readonly unknown[]>;
type GenerateNextOptions = NonNullable<ControlledItem[1]["generateNext"]>;

async function readDistribution(
  chunked: ChunkedSequence,
  chunk: readonly Token[],
  generateNext: GenerateNextOptions,
): Promise<ReadonlyMap<number, number>> {
  const last = chunk.at(-1);
  if (last === undefined) throw new EngineFailureError("the prompt has no token to read after");
  const output = await chunked.sequence.controlledEvaluate([...chunk.slice(0, -1), [last, { generateNext }]]);
  chunked.evaluated();
  const probabilities = output.at(-1)?.next.probabilities;
  if (probabilities === undefined)
    throw new EngineFailureError("llama.cpp returned no next-token distribution");
  return probabilities;
}
