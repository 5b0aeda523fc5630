/** What a call reports when it ends: served, refused for capacity (with Retry-After when given), or failed otherwise. */
export type CallSignal = "ok" | "overload" | "error";

/** Options of an {@link AimdLimit}. */
export interface AimdLimitOptions {
  /** Calls in flight at most, ever (the function's `MAX_CONCURRENT_GROUPS`). Required, ≥ 1. */
  maxLimit: number;
  /** The limit never falls below this. Default 1. */
  minLimit?: number;
  /**
   * The limit at the start. Default `minLimit`: a new instance starts low and climbs (one more
   * per round of successes) — several instances starting at once at their maximum would send
   * more than the endpoint admits before any of them heard a refusal.
   */
  initialLimit?: number;
  /** The limit is multiplied by this on an overload signal. Default 0.5. */
  decreaseFactor?: number;
  /**
   * How many times slower the limit climbs back to the level at which the endpoint last refused
   * (and through the next step above it) than below it. Default 8. The endpoint's capacity is
   * shared: climbing into the level that was refused at the normal pace would be refused again
   * every few rounds; climbing slowly there probes it rarely, so refusals stay rare, while a
   * limit far below it recovers at once.
   */
  probeSlowdown?: number;
  /** Pause of new calls after an overload that names no Retry-After; it doubles while overloads follow each other. Default 250 ms. */
  pauseMs?: number;
  /** The longest pause, Retry-After included. Default 10000 ms. */
  maxPauseMs?: number;
}

/**
 * The AIMD rule of the decide function's adaptive concurrency, as a synchronous state machine on
 * a time the caller passes in (epoch or simulated milliseconds): the one rule that
 * `AdaptiveConcurrencyLimiter` (permits, waiters and a clock around it) and the simulation's
 * decide-function model (a discrete-event loop) both run.
 *
 * At most ⌊limit⌋ calls are out at once. The limit starts at `initialLimit`. A served call raises
 * it by 1/limit (one more per round of `limit` successes) up to `maxLimit`, `probeSlowdown` times
 * less while the next step would reach the level last refused (and until a step above it served);
 * an overload multiplies it by `decreaseFactor`, down to `minLimit`, once per episode (a call that
 * was already out at the last decrease says nothing new), and pauses new calls for the
 * Retry-After or a pause of its own that doubles while overloads follow each other. Other
 * failures leave the limit as it is.
 *
 * @example
 * const aimd = new AimdLimit({ maxLimit: 8 });
 * if (aimd.canStart(now)) { const order = aimd.take(); ...; aimd.release(order, "ok", later); }
 */
export class AimdLimit {
  readonly maxLimit: number;
  readonly minLimit: number;
  readonly decreaseFactor: number;
  readonly pauseMs: number;
  readonly maxPauseMs: number;
  readonly probeSlowdown: number;
  #limit: number;
  #inFlight = 0;
  #pausedUntilMs = 0;
  #lastDecreaseOrder = 0;
  #overloadsInARow = 0;
  #decreases = 0;
  #refusedAt: number | undefined;
  #sequence = 0;

  /** @throws {RangeError} for limits that are not positive integers in order, or a factor outside (0, 1). */
  constructor(options: AimdLimitOptions) {
    this.maxLimit = options.maxLimit;
    this.minLimit = options.minLimit ?? 1;
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
    this.pauseMs = options.pauseMs ?? 250;
    this.maxPauseMs = options.maxPauseMs ?? 10_000;
    this.probeSlowdown = options.probeSlowdown ?? 8;
    this.#limit = options.initialLimit ?? this.minLimit;
    if (!Number.isInteger(this.maxLimit) || this.maxLimit < 1) {
      throw new RangeError(`maxLimit must be a positive integer, got ${this.maxLimit}`);
    }
    if (!Number.isInteger(this.minLimit) || this.minLimit < 1 || this.minLimit > this.maxLimit) {
      throw new RangeError(`minLimit must be an integer in 1..${this.maxLimit}, got ${this.minLimit}`);
    }
    if (!(this.#limit >= this.minLimit && this.#limit <= this.maxLimit)) {
      throw new RangeError(`initialLimit must lie in ${this.minLimit}..${this.maxLimit}, got ${this.#limit}`);
    }
    if (!(this.decreaseFactor > 0 && this.decreaseFactor < 1)) {
      throw new RangeError(`decreaseFactor must lie in (0, 1), got ${this.decreaseFactor}`);
    }
    if (!(this.probeSlowdown >= 1 && Number.isFinite(this.probeSlowdown))) {
      throw new RangeError(`probeSlowdown must be a finite number ≥ 1, got ${this.probeSlowdown}`);
    }
    if (!(this.pauseMs >= 0 && this.maxPauseMs >= this.pauseMs)) {
      throw new RangeError(
        `pauseMs must be ≥ 0 and ≤ maxPauseMs, got ${this.pauseMs} and ${this.maxPauseMs}`,
      );
    }
  }

  /** The current limit (fractional; ⌊limit⌋ calls may be out). */
  limit(): number {
    return this.#limit;
  }

  /** Calls out now. */
  inFlight(): number {
    return this.#inFlight;
  }

  /** Milliseconds (on the caller's time) before which no call starts; 0 before any overload. */
  pausedUntilMs(): number {
    return this.#pausedUntilMs;
  }

  /** How many times the limit was decreased. */
  decreases(): number {
    return this.#decreases;
  }

  /** The level (calls out at once) at which the endpoint last refused; undefined once a step above it served. */
  refusedAt(): number | undefined {
    return this.#refusedAt;
  }

  /** Whether a call may start at `nowMs`: a free place under ⌊limit⌋ and no pause. */
  canStart(nowMs: number): boolean {
    return this.#inFlight < Math.floor(this.#limit) && nowMs >= this.#pausedUntilMs;
  }

  /** Takes a place (whether one is free is the caller's to ask first); returns the call's order, to pass to {@link AimdLimit.release}. */
  take(): number {
    this.#inFlight += 1;
    this.#sequence += 1;
    return this.#sequence;
  }

  /** Gives the place of the call `order` back, with how it ended at `nowMs`, and applies the rule. */
  release(order: number, signal: CallSignal, nowMs: number, retryAfterMs?: number): void {
    this.#inFlight -= 1;
    if (signal === "ok") {
      this.#overloadsInARow = 0;
      this.#limit = Math.min(this.maxLimit, this.#limit + this.#increase());
      // A whole step above the refused level served: that level no longer holds.
      if (this.#refusedAt !== undefined && this.#limit >= this.#refusedAt + 1) this.#refusedAt = undefined;
      return;
    }
    if (signal !== "overload") return;
    this.#overloadsInARow += 1;
    const ownPause = Math.min(this.maxPauseMs, this.pauseMs * 2 ** (this.#overloadsInARow - 1));
    const pause = Math.min(this.maxPauseMs, Math.max(ownPause, retryAfterMs ?? 0));
    this.#pausedUntilMs = Math.max(this.#pausedUntilMs, nowMs + pause);
    // One decrease per episode: a call that was already out at the last decrease says nothing new.
    if (order <= this.#lastDecreaseOrder) return;
    this.#refusedAt = Math.max(this.minLimit + 1, Math.floor(this.#limit));
    this.#limit = Math.max(this.minLimit, this.#limit * this.decreaseFactor);
    this.#lastDecreaseOrder = this.#sequence;
    this.#decreases += 1;
  }

  /**
   * One success's increase: 1/limit (a step per round), `probeSlowdown` times less once the next
   * step would reach the refused level (while ⌊limit⌋ calls are one short of it, at it, and until
   * a step above it).
   */
  #increase(): number {
    const normal = 1 / this.#limit;
    const refusedAt = this.#refusedAt;
    if (refusedAt === undefined || this.#limit + normal < refusedAt) return normal;
    return normal / this.probeSlowdown;
  }
}
