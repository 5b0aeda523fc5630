import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { PreAdmissionFullError } from "./errors.js";

/** Options of {@link PreAdmission}. */
export interface PreAdmissionOptions {
  /**
   * Most requests of each lane held before admission at once (from arrival, while the body is read
   * and while it waits for and takes its turn to be prepared), given what the gate holds now: a
   * function, so that the bound can follow the gate (`bulk`: the places the gate would still give
   * bulk calls). `Infinity` for no bound.
   */
  limitOf: (lane: Lane) => number;
  /**
   * Most requests of each lane waiting for their turn to be prepared (read, not yet parsed or
   * tokenized); beyond it a request is refused. `Infinity` for no bound.
   */
  maxWaiting: (lane: Lane) => number;
}

/** What one lane's work before admission looks like now, and has done since start. */
export interface LanePreAdmission {
  /** Requests of the lane holding a place (reading, waiting or being prepared). */
  held: number;
  /** Requests of the lane read and waiting for their turn to be prepared. */
  waiting: number;
  /** Requests of the lane being prepared now (0 or 1 over both lanes). */
  preparing: number;
  /** Requests of the lane whose preparation ran (succeeded or not), since start. */
  prepared: number;
  /** Requests of the lane whose client went away (or whose deadline passed) while they waited to be prepared: dropped, nothing parsed or tokenized. */
  dropped: number;
  /** Requests of the lane refused because the lane's places or waiting room were full, since start. */
  refused: number;
}

/** The order in which waiting preparations run: every waiting `interactive` one before any `bulk` one. */
const SERVICE_ORDER: readonly Lane[] = ["interactive", "bulk"];

interface Waiter {
  start(): void;
}

type PerLane<T> = Record<Lane, T>;

function perLane<T>(make: () => T): PerLane<T> {
  return Object.fromEntries(LANES.map((lane) => [lane, make()])) as PerLane<T>;
}

/**
 * The work a request costs before the admission gate counts it — reading its body, parsing it,
 * rendering and tokenizing its prompts — bounded per lane and served by lane:
 *
 * - a request takes a place of its lane on arrival ({@link tryEnter}, before its body is read) and
 *   holds it until it is admitted or answered; a lane with no place left is refused at once;
 * - preparations (parse, validate, render, tokenize) run one at a time — the prompt worker is one
 *   thread and parsing runs on the event loop, so running more at once only shares the same CPU —
 *   and a waiting `interactive` preparation runs before any waiting `bulk` one (first come, first
 *   served within a lane);
 * - a preparation whose signal aborts while it waits (its client hung up, its deadline passed) leaves
 *   the queue at once and is never run: nothing is parsed or tokenized for a caller that has gone.
 *
 * So an interactive request waits, before the gate, for at most the one preparation running when
 * it arrived and the interactive ones ahead of it — never for queued bulk work.
 *
 * @example
 * const place = preAdmission.tryEnter("bulk");
 * if (place === undefined) return reply503();
 * try { const body = await read(); const prepared = await place.prepare(() => parse(body), signal); … }
 * finally { place.leave(); }
 */
export class PreAdmission {
  readonly #limitOf: PreAdmissionOptions["limitOf"];
  readonly #maxWaiting: PreAdmissionOptions["maxWaiting"];
  readonly #held: PerLane<number> = perLane(() => 0);
  readonly #waiters: PerLane<Waiter[]> = perLane(() => []);
  readonly #preparing: PerLane<number> = perLane(() => 0);
  readonly #prepared: PerLane<number> = perLane(() => 0);
  readonly #dropped: PerLane<number> = perLane(() => 0);
  readonly #refused: PerLane<number> = perLane(() => 0);
  #busy = false;

  constructor(options: PreAdmissionOptions) {
    this.#limitOf = options.limitOf;
    this.#maxWaiting = options.maxWaiting;
  }

  /** Each lane's places, queue and counts now (a copy). */
  lanes(): Record<Lane, LanePreAdmission> {
    return Object.fromEntries(
      LANES.map((lane) => [
        lane,
        {
          held: this.#held[lane],
          waiting: this.#waiters[lane].length,
          preparing: this.#preparing[lane],
          prepared: this.#prepared[lane],
          dropped: this.#dropped[lane],
          refused: this.#refused[lane],
        },
      ]),
    ) as PerLane<LanePreAdmission>;
  }

  /** A place for a request of `lane` arriving now, or `undefined` (counted as refused) when its lane has none left. */
  tryEnter(lane: Lane): PreAdmissionPlace | undefined {
    if (this.#held[lane] >= this.#limitOf(lane)) {
      this.#refused[lane] += 1;
      return undefined;
    }
    this.#held[lane] += 1;
    return new PreAdmissionPlace(this, lane);
  }

  /** @internal Runs `work` in its turn; see {@link PreAdmissionPlace.prepare}. */
  async run<T>(lane: Lane, work: () => Promise<T> | T, signal: AbortSignal): Promise<T> {
    if (signal.aborted) {
      this.#dropped[lane] += 1;
      throw signal.reason;
    }
    if (this.#busy) {
      if (this.#waiters[lane].length >= this.#maxWaiting(lane)) {
        this.#refused[lane] += 1;
        throw new PreAdmissionFullError(lane);
      }
      await this.#turn(lane, signal);
    } else {
      this.#busy = true;
    }
    this.#preparing[lane] += 1;
    try {
      return await work();
    } finally {
      this.#preparing[lane] -= 1;
      this.#prepared[lane] += 1;
      this.#next();
    }
  }

  /** @internal A place of `lane` is given back. */
  leave(lane: Lane): void {
    this.#held[lane] -= 1;
  }

  /** Waits until the running preparation hands over to this one; rejects with the signal's reason if it aborts first. */
  #turn(lane: Lane, signal: AbortSignal): Promise<void> {
    const waiters = this.#waiters[lane];
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const at = waiters.indexOf(waiter);
        if (at !== -1) waiters.splice(at, 1);
        this.#dropped[lane] += 1;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      waiters.push(waiter);
    });
  }

  /** Hands the turn to the next waiting preparation in {@link SERVICE_ORDER}, or goes idle. */
  #next(): void {
    for (const lane of SERVICE_ORDER) {
      const waiter = this.#waiters[lane].shift();
      if (waiter !== undefined) {
        waiter.start();
        return;
      }
    }
    this.#busy = false;
  }
}

/** One request's place in a {@link PreAdmission}, from arrival to admission (or answer). */
export class PreAdmissionPlace {
  #left = false;

  /** @internal Created by {@link PreAdmission.tryEnter}. */
  constructor(
    private readonly preAdmission: PreAdmission,
    /** The lane the request named. */
    readonly lane: Lane,
  ) {}

  /**
   * Runs `work` (the request's parse and preparation) in its turn: at once when nothing is being
   * prepared, else after the preparation running now and every waiting one that goes before it.
   *
   * @throws the signal's reason when it aborts before the turn comes (the work never runs);
   *   {@link PreAdmissionFullError} when the lane's waiting room is full; what `work` throws.
   */
  prepare<T>(work: () => Promise<T> | T, signal: AbortSignal): Promise<T> {
    return this.preAdmission.run(this.lane, work, signal);
  }

  /** Gives the place back (the request was admitted, or answered). Safe to call more than once. */
  leave(): void {
    if (this.#left) return;
    this.#left = true;
    this.preAdmission.leave(this.lane);
  }
}
