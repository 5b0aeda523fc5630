import { type Clock, systemClock } from "../common/Clock.js";
import type { Deadline } from "../common/Deadline.js";
import { AimdLimit, type AimdLimitOptions, type CallSignal } from "./AimdLimit.js";

export type { CallSignal } from "./AimdLimit.js";

/** Options of an {@link AdaptiveConcurrencyLimiter}: the rule's ({@link AimdLimitOptions}) and its clock. */
export interface AdaptiveConcurrencyLimiterOptions extends AimdLimitOptions {
  /** Default: the system clock. */
  clock?: Clock;
}

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
 * multiplicative decrease (AIMD, as TCP's congestion window; the rule itself is
 * {@link AimdLimit}, which the simulation runs too). Each call first takes a permit;
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
  readonly #clock: Clock;
  readonly #aimd: AimdLimit;
  #waiters: Waiter[] = [];
  #wakeScheduled = false;

  /** @throws {RangeError} for limits that are not positive integers in order, or a factor outside (0, 1). */
  constructor(options: AdaptiveConcurrencyLimiterOptions) {
    this.#aimd = new AimdLimit(options);
    this.#clock = options.clock ?? systemClock;
  }

  /** The current limit (fractional; ⌊limit⌋ calls may be out). */
  limit(): number {
    return this.#aimd.limit();
  }

  stats(): LimiterStats {
    const pausedUntil = this.#aimd.pausedUntilMs();
    return {
      limit: this.#aimd.limit(),
      inFlight: this.#aimd.inFlight(),
      waiting: this.#waiters.length,
      pausedUntil: pausedUntil > this.#clock.now() ? pausedUntil : 0,
      decreases: this.#aimd.decreases(),
      refusedAt: this.#aimd.refusedAt(),
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
    while (this.#waiters.length > 0 && this.#aimd.inFlight() < Math.floor(this.#aimd.limit())) {
      const now = this.#clock.now();
      const pausedUntil = this.#aimd.pausedUntilMs();
      if (now < pausedUntil) {
        this.#wakeAt(pausedUntil);
        return;
      }
      const waiter = this.#waiters.shift() as Waiter;
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
    const order = this.#aimd.take();
    let released = false;
    return {
      release: (signal, retryAfterMs) => {
        if (released) return;
        released = true;
        this.#aimd.release(order, signal, this.#clock.now(), retryAfterMs);
        this.#pump();
      },
    };
  }
}
