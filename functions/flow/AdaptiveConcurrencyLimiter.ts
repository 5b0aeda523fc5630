import { type Clock, systemClock } from "../common/Clock.js";
import type { Deadline } from "../common/Deadline.js";

/** Options of an {@link AdaptiveConcurrencyLimiter}. */
export interface AdaptiveConcurrencyLimiterOptions {
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
  /** Default: the system clock. */
  clock?: Clock;
}

/** What a call reports when it ends: served, refused for capacity (with Retry-After when given), or failed otherwise. */
export type CallSignal = "ok" | "overload" | "error";

/** The right to make one call; release it exactly once, with how the call ended. */
export interface Permit {
  release(signal: CallSignal, retryAfterMs?: number): void;
}

/** A snapshot of the limiter, for logs and tests. */
export interface LimiterStats {
  limit: number;
  inFlight: number;
  waiting: number;
  /** Epoch ms before which no new call starts (0: not paused). */
  pausedUntil: number;
  decreases: number;
  /** The level (calls out at once) at which the endpoint last refused; undefined once a round above it succeeded. */
  refusedAt: number | undefined;
}

interface Waiter {
  grant: (permit: Permit | undefined) => void;
}

/**
 * Adaptive concurrency of one function instance's calls to the endpoint: additive increase,
 * multiplicative decrease (AIMD, as TCP's congestion window). Each call first takes a permit;
 * at most ⌊limit⌋ are out at once. The limit starts at `initialLimit` (default the minimum, as
 * TCP starts small). A served call raises the limit by 1/limit (one more per round of `limit`
 * successes) up to `maxLimit`; an overload answer (503 at capacity, 429, throttling) multiplies it
 * by `decreaseFactor` — once per episode: answers to calls that were already in flight when it
 * last decreased do not decrease it again — and pauses new calls for the answer's Retry-After (or
 * a doubling pause of its own). Other failures leave it as it is. Like TCP CUBIC's plateau near
 * its last loss, the limit remembers the level that was refused and climbs into it
 * `probeSlowdown` times slower, so that instances sharing one endpoint avoid most refusals instead
 * of meeting one every few rounds. Waiting callers are served in arrival order; a caller whose
 * deadline passes first gets no permit.
 *
 * No maintained library fits the shape needed here (a deadline-bounded wait on an injectable
 * clock, fed by the endpoint's own overload signals and Retry-After), hence by hand.
 *
 * @example
 * const permit = await limiter.acquire(deadline);
 * if (permit === undefined) throw new EndpointBusyError(...);
 * try { await call(); permit.release("ok"); } catch (e) { permit.release(isCapacity(e) ? "overload" : "error"); throw e; }
 */
export class AdaptiveConcurrencyLimiter {
  readonly maxLimit: number;
  readonly minLimit: number;
  readonly decreaseFactor: number;
  readonly pauseMs: number;
  readonly maxPauseMs: number;
  readonly probeSlowdown: number;
  readonly #clock: Clock;
  #limit: number;
  #inFlight = 0;
  #pausedUntil = 0;
  #lastDecreaseOrder = 0;
  #overloadsInARow = 0;
  #decreases = 0;
  #refusedAt: number | undefined;
  #sequence = 0;
  #waiters: Waiter[] = [];
  #wakeScheduled = false;

  /** @throws {RangeError} for limits that are not positive integers in order, or a factor outside (0, 1). */
  constructor(options: AdaptiveConcurrencyLimiterOptions) {
    this.maxLimit = options.maxLimit;
    this.minLimit = options.minLimit ?? 1;
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
    this.pauseMs = options.pauseMs ?? 250;
    this.maxPauseMs = options.maxPauseMs ?? 10_000;
    this.probeSlowdown = options.probeSlowdown ?? 8;
    this.#clock = options.clock ?? systemClock;
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

  stats(): LimiterStats {
    return {
      limit: this.#limit,
      inFlight: this.#inFlight,
      waiting: this.#waiters.length,
      pausedUntil: this.#pausedUntil > this.#clock.now() ? this.#pausedUntil : 0,
      decreases: this.#decreases,
      refusedAt: this.#refusedAt,
    };
  }

  /**
   * Waits for a permit: until fewer than ⌊limit⌋ calls are out, no pause holds and every earlier
   * caller has had its turn. Resolves undefined when `deadline` passes first.
   */
  acquire(deadline: Deadline): Promise<Permit | undefined> {
    if (deadline.expired()) return Promise.resolve(undefined);
    return new Promise<Permit | undefined>((resolve) => {
      const abort = new AbortController();
      const waiter: Waiter = {
        grant: (permit) => {
          abort.abort();
          resolve(permit);
        },
      };
      this.#waiters.push(waiter);
      this.#clock.sleep(deadline.remainingMs(), abort.signal).then(
        () => {
          const at = this.#waiters.indexOf(waiter);
          if (at < 0) return;
          this.#waiters.splice(at, 1);
          resolve(undefined);
          // A waiter leaving may let the next one in (it was not blocking, but keep the queue moving).
          this.#pump();
        },
        () => undefined,
      );
      this.#pump();
    });
  }

  /** Grants permits to waiters in order while the limit and the pause allow. */
  #pump(): void {
    while (this.#waiters.length > 0 && this.#inFlight < Math.floor(this.#limit)) {
      const now = this.#clock.now();
      if (now < this.#pausedUntil) {
        this.#wakeAt(this.#pausedUntil);
        return;
      }
      const waiter = this.#waiters.shift() as Waiter;
      this.#inFlight += 1;
      waiter.grant(this.#permit());
    }
  }

  #wakeAt(at: number): void {
    if (this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    void this.#clock.sleep(Math.max(0, at - this.#clock.now())).then(() => {
      this.#wakeScheduled = false;
      this.#pump();
    });
  }

  #permit(): Permit {
    const order = ++this.#sequence;
    let released = false;
    return {
      release: (signal, retryAfterMs) => {
        if (released) return;
        released = true;
        this.#inFlight -= 1;
        this.#onSignal(signal, order, retryAfterMs);
        this.#pump();
      },
    };
  }

  #onSignal(signal: CallSignal, order: number, retryAfterMs: number | undefined): void {
    if (signal === "ok") {
      this.#overloadsInARow = 0;
      this.#limit = Math.min(this.maxLimit, this.#limit + this.#increase());
      // A whole step above the refused level served: that level no longer holds.
      if (this.#refusedAt !== undefined && this.#limit >= this.#refusedAt + 1) this.#refusedAt = undefined;
      return;
    }
    if (signal !== "overload") return;
    const now = this.#clock.now();
    this.#overloadsInARow += 1;
    const ownPause = Math.min(this.maxPauseMs, this.pauseMs * 2 ** (this.#overloadsInARow - 1));
    const pause = Math.min(this.maxPauseMs, Math.max(ownPause, retryAfterMs ?? 0));
    this.#pausedUntil = Math.max(this.#pausedUntil, now + pause);
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
