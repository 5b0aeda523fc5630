/** Options of a {@link RetryBudget}; the defaults are the AWS SDK's standard retry mode's. */
export interface RetryBudgetOptions {
  /** Tokens when full (and at the start). Default 500. */
  capacity?: number;
  /** Tokens one retry costs. Default 5. */
  retryCost?: number;
  /** Tokens a success that needed no retry returns. Default 1. */
  successRefill?: number;
}

/**
 * The retry budget of one function instance: a token bucket as the AWS SDK's standard and
 * adaptive retry modes keep it (the "retry quota"). Every retry takes tokens; when too few are
 * left the retry is not made and the failure stands; a success gives back what its last retry
 * took, or one token when it needed none. So under a lasting overload retries stop after
 * `capacity / retryCost` of them until successes come back: the endpoint sees the calls the
 * work needs, not that many times over. One bucket is shared by every call the instance makes.
 *
 * Written here rather than taken from the SDK: the SDK's quota lives inside its clients'
 * retry strategy, and the pipeline runs its clients with retries off (one retry policy of its own
 * that knows deadlines and Retry-After), so the same small rule is kept here.
 *
 * @example
 * const budget = new RetryBudget();
 * const taken = budget.tryAcquire(); // undefined: no retry
 * budget.onSuccess(taken ?? 0);
 */
export class RetryBudget {
  readonly capacity: number;
  readonly retryCost: number;
  readonly successRefill: number;
  #tokens: number;
  #refused = 0;

  /** @throws {RangeError} for a negative or non-finite setting, or costs of 0 (a free retry is no budget). */
  constructor(options: RetryBudgetOptions = {}) {
    this.capacity = options.capacity ?? 500;
    this.retryCost = options.retryCost ?? 5;
    this.successRefill = options.successRefill ?? 1;
    for (const [name, value] of Object.entries({
      capacity: this.capacity,
      retryCost: this.retryCost,
      successRefill: this.successRefill,
    })) {
      if (!Number.isFinite(value) || value < 0)
        throw new RangeError(`${name} must be a finite number ≥ 0, got ${value}`);
    }
    if (this.retryCost === 0) throw new RangeError("a retry must cost tokens");
    this.#tokens = this.capacity;
  }

  /** Tokens left. */
  available(): number {
    return this.#tokens;
  }

  /** Retries refused for want of tokens, since the start. */
  refused(): number {
    return this.#refused;
  }

  /** Takes the tokens of one retry; returns how many were taken, or undefined (and takes none) when too few are left. */
  tryAcquire(): number | undefined {
    const cost = this.retryCost;
    if (this.#tokens < cost) {
      this.#refused += 1;
      return undefined;
    }
    this.#tokens -= cost;
    return cost;
  }

  /** A call succeeded: `taken` is what its last retry took (0 when it needed none); refills up to the capacity. */
  onSuccess(taken: number): void {
    this.#tokens = Math.min(this.capacity, this.#tokens + (taken > 0 ? taken : this.successRefill));
  }
}
