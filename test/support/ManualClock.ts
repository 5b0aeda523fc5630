/**
 * A clock for tests of code that waits on several timers at once: time moves only when the test
 * calls {@link ManualClock.advance}, and each sleep resolves once time has reached its end (in the
 * order of their ends), or rejects when its signal aborts.
 */
import type { Clock } from "../../core/common/Clock.js";

interface Timer {
  at: number;
  resolve: () => void;
}

/** See the file comment. */
export class ManualClock implements Clock {
  #timers: Timer[] = [];
  constructor(public time = 1_700_000_000_000) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const timer: Timer = { at: this.time + Math.max(0, ms), resolve };
      this.#timers.push(timer);
      signal?.addEventListener(
        "abort",
        () => {
          this.#timers = this.#timers.filter((each) => each !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Timers still waiting. */
  pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, resolving every timer due on the way (and letting their callbacks run). */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = this.#timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.at);
      due.resolve();
    }
    this.time = end;
    await settle();
  }
}

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
