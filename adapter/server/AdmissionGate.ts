/** Options of {@link AdmissionGate}. */
export interface AdmissionGateOptions {
  /** Requests allowed to run against the engine at once (≥ 1). */
  maxInFlight: number;
  /** Admitted requests allowed to wait for a running slot (≥ 0). */
  queueDepth: number;
}

/**
 * Bounded admission: at most `maxInFlight` requests run and at most `queueDepth` more wait; a
 * request beyond that is refused on arrival, before its body is read, so the server never holds
 * an unbounded queue. An admitted request holds a {@link AdmissionTicket} from arrival to response.
 *
 * @example
 * const ticket = gate.tryAdmit();
 * if (ticket === undefined) return reply503();
 * try { await ticket.start(signal); await work(); } finally { ticket.release(); }
 */
export class AdmissionGate {
  readonly #maxInFlight: number;
  readonly #capacity: number;
  #admitted = 0;
  #running = 0;
  readonly #waiters: Array<() => void> = [];
  #idle: Array<() => void> = [];

  constructor(options: AdmissionGateOptions) {
    if (!Number.isInteger(options.maxInFlight) || options.maxInFlight < 1) {
      throw new RangeError(`maxInFlight must be a positive integer, got ${options.maxInFlight}`);
    }
    if (!Number.isInteger(options.queueDepth) || options.queueDepth < 0) {
      throw new RangeError(`queueDepth must be a non-negative integer, got ${options.queueDepth}`);
    }
    this.#maxInFlight = options.maxInFlight;
    this.#capacity = options.maxInFlight + options.queueDepth;
  }

  /** Requests admitted and not yet released (running or waiting). */
  get admitted(): number {
    return this.#admitted;
  }

  /** Most requests admitted at once: those running plus those waiting. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Requests holding a running slot. */
  get running(): number {
    return this.#running;
  }

  /** Admits a request, or returns `undefined` when running and waiting requests fill the gate. */
  tryAdmit(): AdmissionTicket | undefined {
    if (this.#admitted >= this.#capacity) return undefined;
    this.#admitted += 1;
    return new AdmissionTicket(this);
  }

  /** Resolves once no request is admitted (at once when none is). */
  idle(): Promise<void> {
    if (this.#admitted === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** @internal */
  acquireSlot(signal: AbortSignal | undefined): Promise<void> {
    if (this.#running < this.#maxInFlight) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const at = this.#waiters.indexOf(grant);
        if (at !== -1) this.#waiters.splice(at, 1);
        reject(signal?.reason);
      };
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(grant);
    });
  }

  /** @internal Frees a running slot: it passes straight to the next waiter, if any. */
  freeSlot(): void {
    const next = this.#waiters.shift();
    if (next !== undefined) next();
    else this.#running -= 1;
  }

  /** @internal A ticket leaves the gate. */
  leave(): void {
    this.#admitted -= 1;
    if (this.#admitted === 0) {
      const resolvers = this.#idle;
      this.#idle = [];
      for (const resolve of resolvers) resolve();
    }
  }
}

/** One admitted request's place in an {@link AdmissionGate}. */
export class AdmissionTicket {
  #state: "admitted" | "starting" | "running" | "released" = "admitted";

  /** @internal Created by {@link AdmissionGate.tryAdmit}. */
  constructor(private readonly gate: AdmissionGate) {}

  /**
   * Waits for a running slot.
   * @throws the signal's reason when it aborts first (the ticket stays admitted until released).
   */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.#state !== "admitted") throw new Error(`cannot start a ticket that is ${this.#state}`);
    this.#state = "starting";
    try {
      await this.gate.acquireSlot(signal);
    } catch (error) {
      if (this.#state === "starting") this.#state = "admitted";
      throw error;
    }
    if (this.#released()) {
      // Released while it waited: hand the slot straight on.
      this.gate.freeSlot();
      return;
    }
    this.#state = "running";
  }

  #released(): boolean {
    return this.#state === "released";
  }

  /** Leaves the gate, freeing the running slot if held. Safe to call more than once. */
  release(): void {
    if (this.#state === "released") return;
    const hadSlot = this.#state === "running";
    this.#state = "released";
    if (hadSlot) this.gate.freeSlot();
    this.gate.leave();
  }
}
