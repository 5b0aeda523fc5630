import type { LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";

/** Options of {@link RawFloor.load}. */
export interface RawFloorOptions {
  /** The model, already loaded (the engine's own, so both read the same weights in memory). */
  model: LlamaModel;
  threads: number;
  contextSize: number;
  /** Default 512, as the scorer's. */
  batchSize?: number;
}

/**
 * The physical floor the engine is measured against: node-llama-cpp used directly, with nothing
 * of ours in between. One evaluation of the prompt tokens into an empty sequence, then the greedy
 * next token (the least any decision needs: the logits at the last position).
 */
export class RawFloor implements AsyncDisposable {
  readonly #model: LlamaModel;
  readonly #context: LlamaContext;

  readonly #sequence: LlamaContextSequence;

  private constructor(model: LlamaModel, context: LlamaContext) {
    this.#model = model;
    this.#context = context;
    this.#sequence = context.getSequence({ contextShift: { size: 0 } });
  }

  /** Creates the floor's own context on the given model. */
  static async create(options: RawFloorOptions): Promise<RawFloor> {
    const model = options.model;
    const context = await model.createContext({
      contextSize: options.contextSize,
      batchSize: options.batchSize ?? 512,
      threads: options.threads,
      sequences: 1,
      flashAttention: model.flashAttentionSupported,
    });
    return new RawFloor(model, context);
  }

  /** Tokenizes text the way the engine does (special tokens parsed). */
  tokenize(text: string): Token[] {
    return this.#model.tokenize(text, true);
  }

  /**
   * Milliseconds to evaluate `tokens` into an empty sequence and read the greedy next token. The
   * context first evaluates a few tokens untimed, as the engine's context has just served a request.
   */
  async evaluate(tokens: readonly Token[]): Promise<number> {
    await this.#warm(tokens);
    await this.#sequence.clearHistory();
    const started = performance.now();
    await this.#evaluateWithNext(tokens);
    return performance.now() - started;
  }

  /**
   * Milliseconds to evaluate `suffix` on top of an already evaluated `prefix` (not timed) and
   * read the greedy next token: the floor of a request whose prefix is cached.
   */
  async evaluateSuffix(prefix: readonly Token[], suffix: readonly Token[]): Promise<number> {
    await this.#warm(prefix);
    await this.#sequence.clearHistory();
    await this.#sequence.evaluateWithoutGeneratingNewTokens([...prefix]);
    const started = performance.now();
    await this.#evaluateWithNext(suffix);
    return performance.now() - started;
  }

  async #warm(tokens: readonly Token[]): Promise<void> {
    await this.#sequence.clearHistory();
    await this.#evaluateWithNext(tokens.slice(0, 8));
  }

  async #evaluateWithNext(tokens: readonly Token[]): Promise<void> {
    const last = tokens.at(-1);
    if (last === undefined) throw new RangeError("nothing to evaluate");
    await this.#sequence.controlledEvaluate([
      ...tokens.slice(0, -1),
      [last, { generateNext: { token: true, options: { temperature: 0 } } }],
    ]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#context.dispose();
  }
}
