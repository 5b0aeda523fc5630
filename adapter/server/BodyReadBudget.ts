/** Options of {@link BodyReadBudget}. */
export interface BodyReadBudgetOptions {
  /** Most bytes that bodies being read (and not yet prepared) may hold together (≥ 1). */
  maxBytes: number;
}

/**
 * Bounds the memory of request bodies that are being read: each read is charged the bytes it has
 * received, not a slot, so a client that sends headers and a byte of its body and then stalls holds
 * one byte of the budget, never the capacity a normal request needs. A read that would pass the
 * budget is refused (the caller answers 503); a request whose declared length does not fit is
 * refused before anything is read.
 *
 * @example
 * const lease = budget.open();
 * try { lease.take(chunk.length); … } finally { lease.release(); }
 */
export class BodyReadBudget {
  readonly #maxBytes: number;
  #held = 0;

  constructor(options: BodyReadBudgetOptions) {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 1) {
      throw new RangeError(`maxBytes must be a positive integer, got ${options.maxBytes}`);
    }
    this.#maxBytes = options.maxBytes;
  }

  /** Bytes held now by every open lease together. */
  get held(): number {
    return this.#held;
  }

  /** The budget's bound in bytes. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /** Whether `bytes` more would fit now (a request's declared length, checked before reading it). */
  fits(bytes: number): boolean {
    return this.#held + bytes <= this.#maxBytes;
  }

  /** Opens a lease for one body read; it holds nothing until {@link BodyReadLease.take}. */
  open(): BodyReadLease {
    return new BodyReadLease(this);
  }

  /** @internal */
  tryTake(bytes: number): boolean {
    if (!this.fits(bytes)) return false;
    this.#held += bytes;
    return true;
  }

  /** @internal */
  give(bytes: number): void {
    this.#held -= bytes;
  }
}

/** One body read's share of a {@link BodyReadBudget}. */
export class BodyReadLease {
  #held = 0;
  #released = false;

  /** @internal Created by {@link BodyReadBudget.open}. */
  constructor(private readonly budget: BodyReadBudget) {}

  /** Bytes this lease holds. */
  get held(): number {
    return this.#held;
  }

  /**
   * Charges `bytes` more to the lease; false (nothing charged) when the budget has no room for them
   * or the lease was released.
   */
  take(bytes: number): boolean {
    if (this.#released || !this.budget.tryTake(bytes)) return false;
    this.#held += bytes;
    return true;
  }

  /** Gives back everything the lease holds. Safe to call more than once. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.budget.give(this.#held);
    this.#held = 0;
  }
}
