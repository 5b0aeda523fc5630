import { Worker } from "node:worker_threads";
import type { Token } from "node-llama-cpp";
import type { LlamaBuild } from "../builds/llamaBuilds.js";
import { AbortedError, PromptWorkerError } from "../errors.js";
import type { PreparedPrompt } from "../prompt/preparePrompts.js";
import type { DecisionBatch } from "../types.js";
import {
  batchMessageOf,
  errorOfProblems,
  type PromptWorkerInit,
  type ReplyMessage,
} from "./promptWorkerProtocol.js";

/** Options of {@link PromptWorker.start}. */
export interface PromptWorkerOptions {
  /** The GGUF file the scorer loaded (the thread loads its vocabulary only). */
  modelPath: string;
  /** The scorer's llama.cpp build. Default `prebuilt`. */
  llamaBuild?: LlamaBuild;
  /** The scorer's verified labels and their tokens, in slot order. */
  labels: readonly string[];
  labelTokens: readonly Token[];
  /** The scorer's context size. */
  contextSize: number;
}

/**
 * Renders and tokenizes decision batches on a worker thread, so that the event loop of the process
 * that scores them stays free while a large request is prepared (a 130 KB state or 3 questions × 255
 * options × 40 rotations take seconds to render and tokenize; `/ping` must answer meanwhile).
 *
 * Why a thread with its own copy of the vocabulary: node-llama-cpp's `tokenize` is synchronous and
 * belongs to the model object of the thread that loaded it, and no pure-JS tokenizer reads every
 * GGUF's vocabulary the way llama.cpp does. The thread loads the same file with `vocabOnly` on the
 * same llama.cpp build and runs the same `preparePrompts`, so its tokens are the scorer's. Batches
 * are prepared one at a time, in the order sent.
 *
 * @example
 * const worker = await PromptWorker.start({ modelPath, labels, labelTokens, contextSize: 8192 });
 * const prompts = await worker.prepare(batch); // what preparePrompts(batch, …) returns
 * await worker.close();
 */
export class PromptWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve(prompts: PreparedPrompt[]): void; reject(error: unknown): void }
  >();
  #nextId = 0;
  #failure: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on("message", (reply: ReplyMessage) => this.#settle(reply));
    worker.on("error", (error) =>
      this.#fail(new PromptWorkerError("the prompt worker failed", { cause: error })),
    );
    worker.on("exit", (code) => this.#fail(new PromptWorkerError(`the prompt worker exited (code ${code})`)));
  }

  /**
   * Starts the thread and waits until its vocabulary is loaded.
   * @throws PromptWorkerError when the thread cannot start or load the vocabulary (cause kept).
   */
  static async start(options: PromptWorkerOptions): Promise<PromptWorker> {
    const init: PromptWorkerInit = {
      modelPath: options.modelPath,
      llamaBuild: options.llamaBuild ?? "prebuilt",
      labels: [...options.labels],
      labelTokens: [...options.labelTokens],
      contextSize: options.contextSize,
    };
    // From the sources (tsx) the thread runs the .ts file; the worker inherits tsx through execArgv.
    const fromSources = import.meta.url.endsWith(".ts");
    const worker = new Worker(new URL(`./promptWorkerMain.${fromSources ? "ts" : "js"}`, import.meta.url), {
      workerData: init,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const onMessage = (message: { ready?: boolean }): void => {
          if (message.ready !== true) return;
          worker.off("message", onMessage);
          worker.off("error", reject);
          worker.off("exit", onExit);
          resolve();
        };
        const onExit = (code: number): void =>
          reject(new Error(`exited with code ${code} before it was ready`));
        worker.on("message", onMessage);
        worker.once("error", reject);
        worker.once("exit", onExit);
      });
    } catch (error) {
      await worker.terminate();
      throw new PromptWorkerError(`the prompt worker could not load ${options.modelPath}`, { cause: error });
    }
    return new PromptWorker(worker);
  }

  /**
   * The prompts of `batch`, as `preparePrompts` gives them, prepared on the thread. An abort
   * rejects at once; the thread still finishes that batch (it cannot be interrupted mid-tokenize)
   * and its result is dropped.
   *
   * @throws InvalidDecisionError (its subclasses, or an InvalidBatchError of several) as
   *   `preparePrompts` would; AbortedError on abort; PromptWorkerError when the thread failed.
   */
  prepare(batch: DecisionBatch, signal?: AbortSignal): Promise<PreparedPrompt[]> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (signal?.aborted === true)
      return Promise.reject(new AbortedError("preparing the prompts was aborted"));
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise<PreparedPrompt[]>((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending.delete(id);
        reject(new AbortedError("preparing the prompts was aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (prompts) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(
            prompts.map((prompt) => ({
              ...prompt,
              question: batch.questions[prompt.questionIndex] ?? prompt.question,
            })),
          );
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#worker.postMessage(batchMessageOf(id, batch));
    });
  }

  /** Stops the thread; batches in progress reject with PromptWorkerError. */
  async close(): Promise<void> {
    this.#fail(new PromptWorkerError("the prompt worker was closed"));
    await this.#worker.terminate();
  }

  #settle(reply: ReplyMessage): void {
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return; // aborted meanwhile
    this.#pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.prompts as PreparedPrompt[]);
    else if ("problems" in reply) pending.reject(errorOfProblems(reply.problems));
    else pending.reject(new PromptWorkerError(`the prompt worker failed on a batch: ${reply.failure}`));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
  }
}
