import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { StateFileCache } from "../cache/StateFileCache.js";
import { throwIfAborted } from "../throwIfAborted.js";
import { commonPrefixLength } from "./commonPrefixLength.js";
import { reusablePrefix } from "./reusablePrefix.js";
import type { SamplerGarbage } from "./SamplerGarbage.js";

/** What {@link ChunkedSequence} uses of a node-llama-cpp sequence (a fake in unit tests). */
export type EvaluationSequence = Pick<
  LlamaContextSequence,
  | "contextTokens"
  | "nextTokenIndex"
  | "eraseContextTokenRanges"
  | "evaluateWithoutGeneratingNewTokens"
  | "takeCheckpoint"
  | "saveStateToFile"
  | "loadStateFromFile"
  | "clearHistory"
  | "controlledEvaluate"
  | "evaluate"
>;

/** The token boundaries a prompt is evaluated at (see {@link ChunkedSequence.prefill}). */
export interface ChunkedPrompt {
  tokens: readonly Token[];
  /** End of the preamble (the same in every prompt of one layout). */
  preambleBoundary: number;
  /**
   * End of the prefix other prompts share with this one: the state and the text after it that no
   * question changes (state first), or the question and its options (question first).
   */
  sharedBoundary: number;
}

/** Options of {@link ChunkedSequence}. */
export interface ChunkedSequenceOptions {
  sequence: EvaluationSequence;
  /** Tokens evaluated per decode step. */
  batchSize: number;
  /** Saved states across requests (its own bound; 0 bytes keeps none). */
  stateFiles: StateFileCache;
  /** Shared prefixes shorter than this beyond the preamble are cheaper to evaluate than to save and load. Default 32. */
  stateFileMinTokens?: number;
  /** Told of every node-llama-cpp evaluation call, so their samplers' memory stays bounded. Default: none. */
  samplerGarbage?: SamplerGarbage;
}

/** What {@link ChunkedSequence.prefill} did. */
export interface Prefill {
  /** Tokens reused (live in the sequence or loaded from a saved state) instead of evaluated. */
  reused: number;
  /** Whether the state came from a saved state file. */
  fromFile: boolean;
}

/**
 * The live sequence and what it holds, evaluated in fixed chunks: every prompt is split at the
 * same places — `[0, preamble)`, `[preamble, shared)`, `[shared, end)` — whatever was cached, so a
 * question scored alone, in a batch, cold or on a cached state computes the same numbers. The
 * shared prefix is the state and the question-independent text after it in `direct-options-v1`,
 * and the question with its options in `question-first-v1`.
 *
 * Reuse across prompts goes only back to a chunk end the live sequence shares with a cold run
 * ({@link reusablePrefix}): attention models rewind their KV cache to it; recurrent and hybrid
 * models restore the checkpoint taken there. A state not live any more may come back from a saved
 * state file (made at the shared boundary, so with exactly the chunks of a cold run).
 */
export class ChunkedSequence {
  readonly sequence: EvaluationSequence;
  readonly stateFiles: StateFileCache;
  readonly #batchSize: number;
  readonly #stateFileMinTokens: number;
  readonly #samplerGarbage: SamplerGarbage | undefined;
  /** Where the evaluation chunks of the live sequence ended. */
  #chunkEnds: number[] = [];

  constructor(options: ChunkedSequenceOptions) {
    this.sequence = options.sequence;
    this.stateFiles = options.stateFiles;
    this.#batchSize = options.batchSize;
    this.#stateFileMinTokens = options.stateFileMinTokens ?? 32;
    this.#samplerGarbage = options.samplerGarbage;
  }

  /** Where the live sequence's evaluation chunks ended (for tests and diagnostics). */
  get chunkEnds(): readonly number[] {
    return this.#chunkEnds;
  }

  /**
   * Brings the sequence to the end of the prompt's shared prefix: rewinds to the last reusable
   * chunk end, loads a saved state when the prefix is not live, evaluates what is missing chunk by
   * chunk (a checkpoint at each boundary, a state file at the shared prefix's end), and leaves
   * `tokens.slice(sharedBoundary)` to evaluate.
   * @throws AbortedError when the signal aborts between chunks.
   */
  async prefill(prompt: ChunkedPrompt, signal?: AbortSignal): Promise<Prefill> {
    const sequence = this.sequence;
    const { tokens } = prompt;
    const boundaries = [prompt.preambleBoundary, prompt.sharedBoundary];
    const keep = reusablePrefix(
      boundaries,
      commonPrefixLength(sequence.contextTokens, tokens),
      this.#chunkEnds,
    );
    await this.#rewindTo(keep);
    const stateKey = this.#stateFileKey(prompt);
    let fromFile = false;
    if (sequence.nextTokenIndex < prompt.sharedBoundary && stateKey !== undefined) {
      fromFile = await this.#loadStateFile(stateKey, tokens.slice(0, prompt.sharedBoundary));
      // A saved state was made by evaluating exactly these chunks.
      if (fromFile) this.#chunkEnds = [prompt.preambleBoundary, prompt.sharedBoundary];
    }
    const reused = sequence.nextTokenIndex;
    let position = reused;
    for (const boundary of boundaries) {
      if (boundary <= position) continue;
      await this.evaluate(tokens.slice(position, boundary), signal);
      await sequence.takeCheckpoint();
      position = boundary;
      this.#chunkEnds.push(boundary);
      if (boundary === prompt.sharedBoundary && stateKey !== undefined) {
        await this.stateFiles.store(
          stateKey,
          boundary,
          async (path) => (await sequence.saveStateToFile(path)).fileSize,
        );
      }
    }
    return { reused, fromFile };
  }

  /** Evaluates tokens in batch-size chunks, checking the signal between chunks. */
  async evaluate(tokens: readonly Token[], signal?: AbortSignal): Promise<void> {
    for (let start = 0; start < tokens.length; start += this.#batchSize) {
      throwIfAborted(signal);
      await this.sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(start, start + this.#batchSize));
      this.evaluated();
    }
  }

  /**
   * Records one node-llama-cpp evaluation call made on {@link sequence} from outside this class
   * (a readout, a generation): each leaves a sampler whose memory {@link SamplerGarbage} bounds.
   */
  evaluated(): void {
    this.#samplerGarbage?.evaluated();
  }

  /** Records that a prompt's last chunk was evaluated, ending at `end`. */
  endedChunkAt(end: number): void {
    this.#chunkEnds.push(end);
  }

  /**
   * Prepares generation on `tokens` (the chat path): rewinds to the longest common prefix, leaving
   * at least one token to evaluate. Generation evaluates one chunk from there, so no later
   * position is a chunk end that decisions could reuse.
   * @returns the index from which `tokens` must be evaluated.
   */
  async rewindForGeneration(tokens: readonly Token[]): Promise<number> {
    const keep = Math.min(commonPrefixLength(this.sequence.contextTokens, tokens), tokens.length - 1);
    await this.#rewindTo(keep);
    return this.sequence.nextTokenIndex;
  }

  /** Forgets every evaluated token, snapshot and saved state. */
  async clear(): Promise<void> {
    await this.sequence.clearHistory();
    this.#chunkEnds = [];
    await this.stateFiles.clear();
  }

  async #rewindTo(keep: number): Promise<void> {
    const sequence = this.sequence;
    if (keep < sequence.nextTokenIndex) {
      await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    }
    this.#chunkEnds = this.#chunkEnds.filter((end) => end <= keep);
  }

  /** Key of the prompt's shared prefix in the saved-state cache; undefined when it is too short to be worth a file. */
  #stateFileKey(prompt: ChunkedPrompt): string | undefined {
    if (prompt.sharedBoundary - prompt.preambleBoundary < this.#stateFileMinTokens) return undefined;
    return StateFileCache.keyOf(prompt.tokens.slice(0, prompt.sharedBoundary));
  }

  /**
   * Replaces the sequence's state with a saved one holding exactly `stateTokens`.
   * @returns whether it was loaded; a file that fails to load or holds other tokens is dropped.
   */
  async #loadStateFile(key: string, stateTokens: readonly Token[]): Promise<boolean> {
    const saved = this.stateFiles.get(key);
    if (saved === undefined) return false;
    const sequence = this.sequence;
    // Dropping the history also drops snapshots of the previous state, which must never be
    // restored into this one.
    await sequence.clearHistory();
    this.#chunkEnds = [];
    try {
      await sequence.loadStateFromFile(saved.path, { acceptRisk: true });
    } catch (error) {
      // A lost or unreadable file only costs the evaluation it would have saved.
      await sequence.clearHistory();
      await this.stateFiles.loadFailed(key, error);
      return false;
    }
    if (commonPrefixLength(sequence.contextTokens, stateTokens) !== stateTokens.length) {
      await sequence.clearHistory();
      await this.stateFiles.drop(key);
      return false;
    }
    await sequence.takeCheckpoint();
    return true;
  }
}
