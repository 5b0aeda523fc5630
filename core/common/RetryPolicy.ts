import type { Deadline } from "./Deadline.js";
import { DeadlineExceededError, RetriesExhaustedError, TransientError } from "./errors.js";
import type { RetryBudget } from "./RetryBudget.js";

/** Options of a {@link RetryPolicy}. */
export interface RetryPolicyOptions {
  /** Attempts in all, the first one included. Default 6. */
  maxAttempts?: number;
  /** Cap of the first backoff, in milliseconds; it doubles per retry. Default 100. */
  baseDelayMs?: number;
  /** Largest backoff cap, in milliseconds. Default 5000. */
  maxDelayMs?: number;
  /** Uniform random number in [0, 1), for the jitter. Default `Math.random`. */
  random?: () => number;
  /**
   * The function instance's retry budget (a token bucket): each retry takes tokens, a success
   * gives them back; with too few left the failure stands. Default: none (retries bounded by
   * attempts and deadline only).
   */
  budget?: RetryBudget;
}

/** What {@link RetryPolicy.run} reports before it sleeps and tries again. */
export interface RetryEvent {
  /** The attempt that failed (1 = the first). */
  attempt: number;
  /** How long it waits before the next attempt, in milliseconds. */
  delayMs: number;
  /** The transient failure of that attempt. */
  error: TransientError;
}

/** Per-call settings of {@link RetryPolicy.run}. */
export interface RetryRunOptions {
  /** No attempt starts, and no backoff sleeps, past this moment. Its clock is the one slept on. */
  deadline: Deadline;
  /** Called before each backoff (for metrics and logs). */
  onRetry?: (event: RetryEvent) => void;
}

const DEFAULTS = { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 5000 } as const;

/**
 * The one retry policy of the pipeline functions (the SDK clients run with `maxAttempts: 1`, so
 * retries are not stacked): capped exponential backoff with full jitter, bounded by a deadline.
 * Only a {@link TransientError} is retried; anything else is rethrown at once, so callers translate
 * foreign errors into the pipeline's classes inside the operation.
 *
 * The wait before attempt n+1 is uniform in [0, min(maxDelayMs, baseDelayMs·2^(n-1))) ("full
 * jitter"), and at least the failure's Retry-After ({@link TransientError.retryAfterMs}). When the
 * deadline leaves no room for that wait, it stops. With a {@link RetryBudget}, each retry takes
 * its tokens first and a success gives them back (the AWS SDK's standard-mode retry quota), so
 * retries cannot multiply the load on an endpoint that is failing for everyone.
 *
 * @example
 * const policy = new RetryPolicy({ maxAttempts: 6 });
 * const body = await policy.run(() => endpoint.invokeOnce(request), { deadline });
 */
export class RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly #random: () => number;
  readonly #budget: RetryBudget | undefined;

  constructor(options: RetryPolicyOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? DEFAULTS.maxAttempts;
    this.baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
    this.maxDelayMs = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
    this.#random = options.random ?? Math.random;
    this.#budget = options.budget;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new RangeError(`maxAttempts must be a positive integer, got ${this.maxAttempts}`);
    }
  }

  /** The backoff cap after failed attempt `attempt` (1-based): min(maxDelayMs, baseDelayMs·2^(attempt-1)). */
  capFor(attempt: number): number {
    return Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
  }

  /**
   * Runs `operation` until it succeeds, fails permanently, runs out of attempts or of time.
   *
   * @param operation - called with the attempt number (1-based).
   * @throws DeadlineExceededError when the deadline had passed before the first attempt.
   * @throws RetriesExhaustedError (transient) when attempts, time or the retry budget ran out; `cause` is the last failure.
   * @throws whatever non-transient error `operation` throws, unchanged.
   */
  async run<T>(operation: (attempt: number) => Promise<T>, options: RetryRunOptions): Promise<T> {
    const { deadline } = options;
    if (deadline.expired()) throw new DeadlineExceededError("the first attempt");
    let taken = 0;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await operation(attempt);
        this.#budget?.onSuccess(taken);
        return result;
      } catch (error) {
        if (!(error instanceof TransientError)) throw error;
        if (attempt >= this.maxAttempts)
          throw new RetriesExhaustedError(attempt, "attempts", { cause: error });
        const delayMs = Math.max(
          Math.floor(this.#random() * this.capFor(attempt)),
          Math.ceil(error.retryAfterMs ?? 0),
        );
        if (deadline.remainingMs() <= delayMs) {
          throw new RetriesExhaustedError(attempt, "deadline", { cause: error });
        }
        if (this.#budget !== undefined) {
          const tokens = this.#budget.tryAcquire();
          if (tokens === undefined) throw new RetriesExhaustedError(attempt, "budget", { cause: error });
          taken = tokens;
        }
        options.onRetry?.({ attempt, delayMs, error });
        await deadline.clock.sleep(delayMs);
        if (deadline.expired()) throw new RetriesExhaustedError(attempt, "deadline", { cause: error });
      }
    }
  }
}
