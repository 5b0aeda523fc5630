import type { CallSignal } from "../../functions/flow/AdaptiveConcurrencyLimiter.js";

/** Settings of a {@link LimiterModel}; the defaults are `AdaptiveConcurrencyLimiter`'s. */
export interface LimiterModelOptions {
  /** `MAX_CONCURRENT_GROUPS`. */
  maxLimit: number;
  /** Default 1. */
  minLimit?: number;
  /** Default 0.5. */
  decreaseFactor?: number;
  /** Default 8. */
  probeSlowdown?: number;
  /** Default 250 ms. */
  pauseMs?: number;
  /** Default 10,000 ms. */
  maxPauseMs?: number;
}

/**
 * The decide function's adaptive concurrency limit (functions/flow `AdaptiveConcurrencyLimiter`)
 * as a synchronous state machine on simulated time, so that a discrete-event loop can ask "may a
 * call start now?" without promises. The rule is the limiter's, step for step: start at the
 * minimum; +1/limit per served call (`probeSlowdown` times less near the level last refused);
 * ×`decreaseFactor` once per overload episode; a pause after each overload that doubles while
 * overloads follow each other, at least the Retry-After. A test feeds the same signals to both
 * and compares the limits, so the two cannot drift apart unnoticed.
 */
export class LimiterModel {
  readonly maxLimit: number;
  readonly minLimit: number;
  readonly decreaseFactor: number;
  readonly probeSlowdown: number;
  readonly pauseMs: number;
  readonly maxPauseMs: number;
  #limit: number;
  #inFlight = 0;
  #pausedUntilMs = 0;
  #lastDecreaseOrder = 0;
  #overloadsInARow = 0;
  #refusedAt: number | undefined;
  #sequence = 0;

  constructor(options: LimiterModelOptions) {
    this.maxLimit = options.maxLimit;
    this.minLimit = options.minLimit ?? 1;
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
    this.probeSlowdown = options.probeSlowdown ?? 8;
    this.pauseMs = options.pauseMs ?? 250;
    this.maxPauseMs = options.maxPauseMs ?? 10_000;
    this.#limit = this.minLimit;
  }

  /** The current (fractional) limit. */
  limit(): number {
    return this.#limit;
  }

  /** Calls out now. */
  inFlight(): number {
    return this.#inFlight;
  }

  /** Simulated milliseconds before which no call starts. */
  pausedUntilMs(): number {
    return this.#pausedUntilMs;
  }

  /** Whether a call may start at `nowMs` (a free place under ⌊limit⌋ and no pause). */
  canStart(nowMs: number): boolean {
    return this.#inFlight < Math.floor(this.#limit) && nowMs >= this.#pausedUntilMs;
  }

  /** Takes a place; returns the permit's order (pass it to {@link release}). */
  take(): number {
    this.#inFlight += 1;
    this.#sequence += 1;
    return this.#sequence;
  }

  /** Gives a place back with how its call ended. */
  release(order: number, signal: CallSignal, nowMs: number, retryAfterMs?: number): void {
    this.#inFlight -= 1;
    if (signal === "ok") {
      this.#overloadsInARow = 0;
      this.#limit = Math.min(this.maxLimit, this.#limit + this.#increase());
      if (this.#refusedAt !== undefined && this.#limit >= this.#refusedAt + 1) this.#refusedAt = undefined;
      return;
    }
    if (signal !== "overload") return;
    this.#overloadsInARow += 1;
    const ownPause = Math.min(this.maxPauseMs, this.pauseMs * 2 ** (this.#overloadsInARow - 1));
    const pause = Math.min(this.maxPauseMs, Math.max(ownPause, retryAfterMs ?? 0));
    this.#pausedUntilMs = Math.max(this.#pausedUntilMs, nowMs + pause);
    if (order <= this.#lastDecreaseOrder) return;
    this.#refusedAt = Math.max(this.minLimit + 1, Math.floor(this.#limit));
    this.#limit = Math.max(this.minLimit, this.#limit * this.decreaseFactor);
    this.#lastDecreaseOrder = this.#sequence;
  }

  #increase(): number {
    const normal = 1 / this.#limit;
    const refusedAt = this.#refusedAt;
    if (refusedAt === undefined || this.#limit + normal < refusedAt) return normal;
    return normal / this.probeSlowdown;
  }
}
