import type { Lane } from "../../contract/lanes/lanes.js";
import type { Logger } from "./logger.js";

/** How often, at most, a summary of refused requests is written. */
export const REFUSAL_SUMMARY_INTERVAL_MS = 10_000;

/** Options of {@link RefusalLog}. */
export interface RefusalLogOptions {
  /** The lane whose refusals this log counts; every line names it (`lane`). */
  lane: Lane;
  /** Least time between two lines. Default {@link REFUSAL_SUMMARY_INTERVAL_MS}. */
  intervalMs?: number;
}

/**
 * The log of one lane's requests refused because the server is at capacity for that lane (503
 * with `Retry-After`): the first refusal after a quiet interval is written at once
 * (`requests_refused`, warn, count 1, with the `lane`), later ones are counted and written as one
 * line per interval with their count, and what is left is written by {@link flush} at shutdown.
 * The server keeps one per lane, so a burst of refused bulk calls never hides, nor delays the
 * line of, a refused interactive call.
 *
 * Why not one line per refusal, as other requests get: under overload a server refuses thousands of
 * requests a second (measured here: ~10,000/s from 50 clients that resend at once), and a line each
 * is more work than the refusal itself; worse, when whoever reads stdout falls behind, the pending
 * lines pile up in the process's memory (measured: the adapter's JS heap grew 48 → 122 MB in 30 s
 * with its stdout reader paused, and RSS +40% in a 30 s load run whose load generator read the
 * log). Counting keeps the log, and the memory, bounded by time instead of by traffic. Written by
 * hand: the server's logger is a plain JSON-lines writer, and this is a counter and a timer.
 */
export class RefusalLog {
  readonly #logger: Logger;
  readonly #lane: Lane;
  readonly #intervalMs: number;
  #pending = 0;
  #pendingSince = 0;
  #lastWrite = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;

  constructor(logger: Logger, options: RefusalLogOptions) {
    this.#logger = logger;
    this.#lane = options.lane;
    this.#intervalMs = options.intervalMs ?? REFUSAL_SUMMARY_INTERVAL_MS;
  }

  /** Counts one refusal of a request to `path`; writes at once when nothing was written lately. */
  record(path: string): void {
    const now = performance.now();
    if (this.#pending === 0 && now - this.#lastWrite >= this.#intervalMs) {
      this.#write(1, 0, path);
      return;
    }
    if (this.#pending === 0) this.#pendingSince = now;
    this.#pending += 1;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(path), Math.max(0, this.#lastWrite + this.#intervalMs - now));
      this.#timer.unref();
    }
  }

  /** Writes the refusals counted since the last line, if any (at shutdown, and by the timer). */
  flush(path = "/invocations"): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending === 0) return;
    const count = this.#pending;
    this.#pending = 0;
    this.#write(count, performance.now() - this.#pendingSince, path);
  }

  #write(count: number, overMs: number, path: string): void {
    this.#lastWrite = performance.now();
    this.#logger.log("warn", "requests_refused", {
      path,
      lane: this.#lane,
      status: 503,
      count,
      over_ms: Math.round(overMs),
      reason: "at capacity",
    });
  }
}
