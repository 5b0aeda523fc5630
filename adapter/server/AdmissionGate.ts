import { DEFAULT_REQUEST_LANE, LANES, type Lane } from "../../contract/lanes/lanes.js";

/** Options of {@link AdmissionGate}. */
export interface AdmissionGateOptions {
  /** Requests allowed to run against the engine at once (≥ 1). */
  maxInFlight: number;
  /** Admitted requests allowed to wait for a running slot (≥ 0). */
  queueDepth: number;
  /**
   * Waiting places only `interactive` requests may take: a `bulk` request is refused once the
   * admitted requests, of either lane, fill all but these (0 ≤ reserve ≤ `queueDepth`). Default 0:
   * both lanes share every place (interactive requests still start first).
   */
  interactiveReserve?: number;
  /**
   * Called after a request of `lane` left the gate (released): e.g. to let work held back while
   * interactive requests were admitted go on. Default none.
   */
  onLeave?: (lane: Lane) => void;
}

/** One lane's share of an {@link AdmissionGate} at a moment. */
export interface LaneAdmission {
  /** Requests of the lane admitted and not yet released (running or waiting). */
  admitted: number;
  /** Requests of the lane holding a running slot. */
  running: number;
  /** Requests of the lane waiting in {@link AdmissionTicket.start} for a running slot. */
  waiting: number;
}

/**
 * The order in which waiting requests get a freed running slot: every waiting `interactive`
 * request before any waiting `bulk` one (first come, first served within a lane).
 */
const SERVICE_ORDER: readonly Lane[] = ["interactive", "bulk"];

/**
 * How many freed running slots may go to interactive requests in a row while a bulk request waits:
 * the next one goes to the oldest waiting bulk request. Under sustained interactive load a waiting
 * bulk call still starts (it gets at least one slot in `BULK_OVERTAKE_LIMIT + 1`), and an
 * interactive call waits for at most one bulk evaluation more.
 */
export const BULK_OVERTAKE_LIMIT = 8;

type PerLane<T> = Record<Lane, T>;

function perLane<T>(make: () => T): PerLane<T> {
  return Object.fromEntries(LANES.map((lane) => [lane, make()])) as PerLane<T>;
}

/**
 * Bounded admission in two lanes: at most `maxInFlight` requests run and at most `queueDepth` more
 * wait; a request beyond that is refused on arrival, before its body is read, so the server never
 * holds an unbounded queue. A `bulk` request is also refused when it would take one of the last
 * `interactiveReserve` places, so bulk work never makes an `interactive` request meet a 503. A
 * freed running slot goes to the oldest waiting interactive request, else the oldest waiting bulk
 * one — except that after {@link BULK_OVERTAKE_LIMIT} slots in a row went to interactive requests
 * while a bulk one waited, the next goes to the oldest waiting bulk request (aging, so sustained
 * interactive load cannot keep an admitted bulk call from ever starting): an interactive request
 * waits for the requests running when it arrived, the interactive requests ahead of it and at most
 * one aged bulk request; bulk work otherwise uses whatever interactive work leaves idle. An admitted request holds a {@link AdmissionTicket} from arrival to
 * response.
 *
 * @example
 * const ticket = gate.tryAdmit("bulk");
 * if (ticket === undefined) return reply503();
 * try { await ticket.start(signal); await work(); } finally { ticket.release(); }
 */
export class AdmissionGate {
  readonly #maxInFlight: number;
  readonly #capacity: number;
  readonly #reserve: number;
  readonly #onLeave: (lane: Lane) => void;
  #admitted = 0;
  #running = 0;
  readonly #admittedBy: PerLane<number> = perLane(() => 0);
  readonly #runningBy: PerLane<number> = perLane(() => 0);
  readonly #waiters: PerLane<Array<() => void>> = perLane(() => []);
  /** Freed slots given to interactive requests in a row while a bulk request waited. */
  #overtaken = 0;
  #idle: Array<() => void> = [];

  /**
   * @throws RangeError when `maxInFlight` is not a positive integer, `queueDepth` not a
   *   non-negative integer, or `interactiveReserve` not an integer from 0 to `queueDepth`.
   */
  constructor(options: AdmissionGateOptions) {
    const { maxInFlight, queueDepth, interactiveReserve = 0 } = options;
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1) {
      throw new RangeError(`maxInFlight must be a positive integer, got ${maxInFlight}`);
    }
    if (!Number.isInteger(queueDepth) || queueDepth < 0) {
      throw new RangeError(`queueDepth must be a non-negative integer, got ${queueDepth}`);
    }
    if (!Number.isInteger(interactiveReserve) || interactiveReserve < 0 || interactiveReserve > queueDepth) {
      throw new RangeError(
        `interactiveReserve must be an integer from 0 to queueDepth (${queueDepth}), got ${interactiveReserve}: ` +
          "the reserved places are waiting places, so lower the reserve or deepen the queue",
      );
    }
    this.#maxInFlight = maxInFlight;
    this.#capacity = maxInFlight + queueDepth;
    this.#reserve = interactiveReserve;
    this.#onLeave = options.onLeave ?? (() => undefined);
  }

  /** Requests admitted and not yet released (running or waiting), of both lanes. */
  get admitted(): number {
    return this.#admitted;
  }

  /** Most requests admitted at once: those running plus those waiting (what `interactive` may fill). */
  get capacity(): number {
    return this.#capacity;
  }

  /** Requests holding a running slot, of both lanes. */
  get running(): number {
    return this.#running;
  }

  /** Waiting places only `interactive` requests may take. */
  get interactiveReserve(): number {
    return this.#reserve;
  }

  /** Most requests admitted at once when the newcomer is of `lane` (`bulk`: all but the reserve). */
  capacityOf(lane: Lane): number {
    return lane === "bulk" ? this.#capacity - this.#reserve : this.#capacity;
  }

  /** Requests of `lane` admitted and not yet released (running or waiting). */
  admittedOf(lane: Lane): number {
    return this.#admittedBy[lane];
  }

  /** Whether {@link tryAdmit} would admit a request of `lane` now. */
  hasRoomFor(lane: Lane): boolean {
    return this.#admitted < this.capacityOf(lane);
  }

  /** Each lane's admitted, running and waiting requests now (a copy). */
  lanes(): Record<Lane, LaneAdmission> {
    return Object.fromEntries(
      LANES.map((lane) => [
        lane,
        {
          admitted: this.#admittedBy[lane],
          running: this.#runningBy[lane],
          waiting: this.#waiters[lane].length,
        },
      ]),
    ) as PerLane<LaneAdmission>;
  }

  /**
   * Admits a request of `lane` (default {@link DEFAULT_REQUEST_LANE}), or returns `undefined` when
   * the gate is full for it: for `interactive`, running and waiting requests fill the gate; for
   * `bulk`, they fill all but the last `interactiveReserve` places.
   */
  tryAdmit(lane: Lane = DEFAULT_REQUEST_LANE): AdmissionTicket | undefined {
    if (!this.hasRoomFor(lane)) return undefined;
    this.#admitted += 1;
    this.#admittedBy[lane] += 1;
    return new AdmissionTicket(this, lane);
  }

  /** Resolves once no request is admitted (at once when none is). */
  idle(): Promise<void> {
    if (this.#admitted === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** @internal */
  acquireSlot(lane: Lane, signal: AbortSignal | undefined): Promise<void> {
    if (this.#running < this.#maxInFlight) {
      this.#running += 1;
      this.#runningBy[lane] += 1;
      return Promise.resolve();
    }
    const waiters = this.#waiters[lane];
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        this.#runningBy[lane] += 1;
        resolve();
      };
      const onAbort = (): void => {
        const at = waiters.indexOf(grant);
        if (at !== -1) waiters.splice(at, 1);
        reject(signal?.reason);
      };
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      waiters.push(grant);
    });
  }

  /**
   * @internal Frees a running slot held by a request of `lane`: it passes straight to the next
   * waiter in {@link SERVICE_ORDER}, if any.
   */
  freeSlot(lane: Lane): void {
    this.#runningBy[lane] -= 1;
    const bulkWaits = this.#waiters.bulk.length > 0;
    // Aging: a bulk request overtaken BULK_OVERTAKE_LIMIT times in a row starts next.
    const order: readonly Lane[] =
      bulkWaits && this.#overtaken >= BULK_OVERTAKE_LIMIT ? ["bulk", "interactive"] : SERVICE_ORDER;
    for (const next of order) {
      const grant = this.#waiters[next].shift();
      if (grant !== undefined) {
        this.#overtaken = next === "interactive" && bulkWaits ? this.#overtaken + 1 : 0;
        grant();
        return;
      }
    }
    this.#running -= 1;
  }

  /** @internal A ticket of `lane` leaves the gate. */
  leave(lane: Lane): void {
    this.#admitted -= 1;
    this.#admittedBy[lane] -= 1;
    if (this.#admitted === 0) {
      const resolvers = this.#idle;
      this.#idle = [];
      for (const resolve of resolvers) resolve();
    }
    this.#onLeave(lane);
  }
}

/** One admitted request's place in an {@link AdmissionGate}. */
export class AdmissionTicket {
  #state: "admitted" | "starting" | "running" | "released" = "admitted";

  /** @internal Created by {@link AdmissionGate.tryAdmit}. */
  constructor(
    private readonly gate: AdmissionGate,
    /** The lane the request was admitted in. */
    readonly lane: Lane,
  ) {}

  /**
   * Waits for a running slot.
   * @throws the signal's reason when it aborts first (the ticket stays admitted until released).
   */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.#state !== "admitted") throw new Error(`cannot start a ticket that is ${this.#state}`);
    this.#state = "starting";
    try {
      await this.gate.acquireSlot(this.lane, signal);
    } catch (error) {
      if (this.#state === "starting") this.#state = "admitted";
      throw error;
    }
    if (this.#released()) {
      // Released while it waited: hand the slot straight on.
      this.gate.freeSlot(this.lane);
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
    if (hadSlot) this.gate.freeSlot(this.lane);
    this.gate.leave(this.lane);
  }
}
