import { AbortedError } from "../errors.js";

/**
 * Runs async tasks one at a time, in arrival order. A task whose signal aborts while it waits
 * leaves the queue at once with {@link AbortedError}; a running task is never interrupted here
 * (it checks its own signal).
 */
export class SerialQueue {
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  /** Tasks waiting for their turn (not counting the running one). */
  get waiting(): number {
    return this.#waiting;
  }

  /**
   * Runs `task` once every earlier task has settled.
   * @returns the task's result and how long it waited, in milliseconds.
   * @throws AbortedError when `signal` aborts before the task starts.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<{ value: T; waitedMs: number }> {
    const enqueued = performance.now();
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#waiting += 1;
    try {
      await waitOrAbort(previous, signal);
    } catch (error) {
      this.#waiting -= 1;
      // Our slot in the chain must still open for those behind us, once the ones before are done.
      void previous.then(release);
      throw error;
    }
    this.#waiting -= 1;
    const waitedMs = performance.now() - enqueued;
    try {
      return { value: await task(), waitedMs };
    } finally {
      release();
    }
  }
}

function waitOrAbort(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return turn;
  if (signal.aborted) return Promise.reject(new AbortedError(undefined, { cause: signal.reason }));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void =>
      reject(new AbortedError("aborted while waiting for the model", { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
