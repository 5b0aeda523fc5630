/** Options of a {@link CallLatencyEstimate}. */
export interface CallLatencyEstimateOptions {
  /** Weight of the newest served call in the moving average, in (0, 1]. Default 0.3. */
  weight?: number;
  /** A call starts only with at least this many times the average left before its deadline. Default 1.5. */
  headroom?: number;
}

/**
 * How long this function instance's served calls to the endpoint have taken lately (an
 * exponentially weighted moving average, queueing at the endpoint included), and from it how
 * much time a new call needs before the deadline: `headroom × average`.
 *
 * A call that starts too late for its answer is aborted by the deadline after the endpoint has
 * worked on it — work thrown away, on an endpoint that is already the bottleneck, and the record
 * is re-queued anyway. Not starting it keeps the endpoint's time for calls that can finish; the
 * record is re-queued as busy and a fresh invocation, with its whole time, takes it. Until a call
 * has been served nothing is known and every call may start.
 *
 * @example
 * const latency = new CallLatencyEstimate();
 * latency.observe(1_200);
 * const startBy = deadline.at - latency.neededMs(); // no attempt starts later
 */
export class CallLatencyEstimate {
  readonly weight: number;
  readonly headroom: number;
  #averageMs: number | undefined;

  /** @throws {RangeError} for a weight outside (0, 1] or a headroom below 1. */
  constructor(options: CallLatencyEstimateOptions = {}) {
    this.weight = options.weight ?? 0.3;
    this.headroom = options.headroom ?? 1.5;
    if (!(this.weight > 0 && this.weight <= 1)) {
      throw new RangeError(`weight must lie in (0, 1], got ${this.weight}`);
    }
    if (!(this.headroom >= 1 && Number.isFinite(this.headroom))) {
      throw new RangeError(`headroom must be a finite number ≥ 1, got ${this.headroom}`);
    }
  }

  /** A served call took `ms`. */
  observe(ms: number): void {
    if (!(ms >= 0 && Number.isFinite(ms))) return;
    this.#averageMs =
      this.#averageMs === undefined ? ms : this.#averageMs + this.weight * (ms - this.#averageMs);
  }

  /** The moving average, undefined before the first served call. */
  averageMs(): number | undefined {
    return this.#averageMs;
  }

  /** Time a new call needs before its deadline: headroom × the average (0 before the first served call). */
  neededMs(): number {
    return this.#averageMs === undefined ? 0 : Math.ceil(this.headroom * this.#averageMs);
  }
}
