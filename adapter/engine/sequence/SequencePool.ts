import { AbortedError } from "../errors.js";

/** What a task waiting in the pool asked for. */
interface Waiter<Lane> {
  /** One lane (chosen by `pick` among the free ones), or every lane at once. */
  need: "one" | "all";
  pick: (free: readonly Lane[]) => Lane;
  grant: (lanes: Lane[]) => void;
}

/**
 * Hands out a fixed set of lanes (the sequences of one model context) to async tasks, in arrival
 * order: a task gets a lane as soon as one is free and every task that arrived before it got one.
 * Which free lane it gets is its own choice (`pick`: e.g. the lane whose live tokens it can reuse
 * most). A task may also ask for every lane at once (clearing or closing the context). With one
 * lane this is a serial queue.
 *
 * A task whose signal aborts while it waits leaves the queue at once with {@link AbortedError};
 * a running task is never interrupted here (it checks its own signal).
 */
export class SequencePool<Lane> {
  readonly lanes: readonly Lane[];
  readonly #free: Lane[];
  readonly #waiters: Waiter<Lane>[] = [];

  /** @throws RangeError when there is no lane. */
  constructor(lanes: readonly Lane[]) {
    if (lanes.length === 0) throw new RangeError("a pool needs at least one lane");
    this.lanes = [...lanes];
    this.#free = [...lanes];
  }

  /** Tasks waiting for a lane (not counting the running ones). */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Lanes not held by a task now. */
  get free(): number {
    return this.#free.length;
  }

  /**
   * Runs `task` on one lane, once one is free and every earlier task got its lanes.
   * @param pick chooses among the free lanes (called with at least one). Default: the first.
   * @returns the task's result and how long it waited, in milliseconds.
   * @throws AbortedError when `signal` aborts before the task starts.
   */
  async run<T>(
    task: (lane: Lane) => Promise<T>,
    options: { pick?: (free: readonly Lane[]) => Lane; signal?: AbortSignal } = {},
  ): Promise<{ value: T; waitedMs: number }> {
    const enqueued = performance.now();
    const [lane] = await this.#acquire("one", options.pick ?? ((free) => free[0] as Lane), options.signal);
    const waitedMs = performance.now() - enqueued;
    try {
      return { value: await task(lane as Lane), waitedMs };
    } finally {
      this.#release([lane as Lane]);
    }
  }

  /**
   * Runs `task` holding every lane, once all are free and every earlier task got its lanes
   * (later tasks wait behind it).
   * @throws AbortedError when `signal` aborts before the task starts.
   */
  async runOnAll<T>(task: (lanes: readonly Lane[]) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const lanes = await this.#acquire("all", (free) => free[0] as Lane, signal);
    try {
      return await task(lanes);
    } finally {
      this.#release(lanes);
    }
  }

  #acquire(
    need: "one" | "all",
    pick: (free: readonly Lane[]) => Lane,
    signal?: AbortSignal,
  ): Promise<Lane[]> {
    if (signal?.aborted) return Promise.reject(new AbortedError(undefined, { cause: signal.reason }));
    return new Promise<Lane[]>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#waiters.indexOf(waiter);
        if (index < 0) return;
        this.#waiters.splice(index, 1);
        reject(new AbortedError("aborted while waiting for the model", { cause: signal?.reason }));
        // A waiter for every lane that leaves may let those behind it start.
        this.#dispatch();
      };
      const waiter: Waiter<Lane> = {
        need,
        pick,
        grant: (lanes) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(lanes);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#dispatch();
    });
  }

  #release(lanes: readonly Lane[]): void {
    this.#free.push(...lanes);
    this.#dispatch();
  }

  /** Grants lanes to the waiters at the head of the queue for as long as they can be served. */
  #dispatch(): void {
    for (;;) {
      const head = this.#waiters[0];
      if (head === undefined) return;
      if (head.need === "all") {
        if (this.#free.length < this.lanes.length) return;
        this.#waiters.shift();
        head.grant(this.#free.splice(0));
        continue;
      }
      if (this.#free.length === 0) return;
      const chosen = head.pick(this.#free);
      const index = this.#free.indexOf(chosen);
      this.#waiters.shift();
      head.grant(this.#free.splice(Math.max(index, 0), 1));
    }
  }
}
