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
  /**
   * Whether `interactive` work is in flight past this stage: admitted at the gate, waiting for or
   * holding a running slot. While it is (or while an interactive request here has asked for its
   * preparation and not yet left), a `bulk` preparation does not start (see
   * {@link PreAdmission}); call {@link PreAdmission.recheck} when it may have ended. Default: never.
   */
  interactiveAdmitted?: () => boolean;
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
  /**
   * Preparations of the lane that would have had their turn but waited for interactive work in
   * flight to end (bulk only), since start.
   */
  deferred: number;
}

/** The order in which waiting preparations run: every waiting `interactive` one before any `bulk` one. */
const SERVICE_ORDER: readonly Lane[] = ["interactive", "bulk"];

/**
 * How many interactive preparations may run while a bulk preparation waits before the oldest
 * waiting bulk preparation runs next, interactive work in flight or not (aging, as the gate's
 * `BULK_OVERTAKE_LIMIT`): under sustained interactive load a bulk request is still prepared (at
 * least one in `BULK_PREPARATION_OVERTAKE_LIMIT + 1` turns), and an interactive call shares the CPU
 * with at most that one bulk preparation.
 */
export const BULK_PREPARATION_OVERTAKE_LIMIT = 8;

interface Waiter {
  start(): void;
  /** Found the turn free but was held for interactive work (counted once). */
  deferred: boolean;
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
 * - a `bulk` preparation does not start while interactive work is in flight — an interactive
 *   request that has asked for its preparation and not yet been answered or admitted, or one
 *   admitted at the gate ({@link PreAdmissionOptions.interactiveAdmitted}): bulk bodies are parsed
 *   and tokenized between interactive calls, so they never take the CPU from an interactive
 *   evaluation (on a CPU host llama.cpp's threads, the prompt worker and the event loop share the
 *   same cores). Bound: after {@link BULK_PREPARATION_OVERTAKE_LIMIT} interactive preparations
 *   ran while a bulk one waited, the oldest waiting bulk preparation runs at the next free turn;
 *   a bulk request also still ends at its own deadline (a busy 503);
 * - a preparation whose signal aborts while it waits (its client hung up, its deadline passed) leaves
 *   the queue at once and is never run: nothing is parsed or tokenized for a caller that has gone.
 *
 * So an interactive request waits, before the gate, for at most the one preparation running when
 * it arrived and the interactive ones ahead of it — never for queued bulk work — and its
 * evaluation runs beside no bulk preparation but (rarely) one aged one.
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
  readonly #deferred: PerLane<number> = perLane(() => 0);
  readonly #interactiveAdmitted: () => boolean;
  /** Interactive requests here that asked for their preparation and have not left yet. */
  #interactiveEngaged = 0;
  /** Interactive preparations run while a bulk preparation waited, since a bulk one last ran. */
  #overtaken = 0;
  #busy = false;

  constructor(options: PreAdmissionOptions) {
    this.#limitOf = options.limitOf;
    this.#maxWaiting = options.maxWaiting;
    this.#interactiveAdmitted = options.interactiveAdmitted ?? (() => false);
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
          deferred: this.#deferred[lane],
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
    const held = lane === "bulk" && this.#holdsBulk();
    // Bulk preparations already waiting (held) go first within their lane.
    if (this.#busy || held || (lane === "bulk" && this.#waiters.bulk.length > 0)) {
      if (this.#waiters[lane].length >= this.#maxWaiting(lane)) {
        this.#refused[lane] += 1;
        throw new PreAdmissionFullError(lane);
      }
      const turn = this.#turn(lane, signal);
      this.#dispatch();
      await turn;
    } else {
      this.#busy = true;
      this.#counted(lane);
    }
    this.#preparing[lane] += 1;
    try {
      return await work();
    } finally {
      this.#preparing[lane] -= 1;
      this.#prepared[lane] += 1;
      this.#busy = false;
      this.#dispatch();
    }
  }

  /** @internal An interactive request asked for its preparation: bulk preparations wait until it leaves. */
  engage(lane: Lane): void {
    if (lane === "interactive") this.#interactiveEngaged += 1;
  }

  /** @internal A place of `lane` is given back (`engaged`: it had asked for its preparation). */
  leave(lane: Lane, engaged: boolean): void {
    this.#held[lane] -= 1;
    if (engaged && lane === "interactive") {
      this.#interactiveEngaged -= 1;
      this.#dispatch();
    }
  }

  /**
   * Starts a waiting bulk preparation if interactive work no longer holds it: call when interactive
   * work past this stage ends ({@link PreAdmissionOptions.interactiveAdmitted} may have turned false).
   */
  recheck(): void {
    this.#dispatch();
  }

  /** Whether a bulk preparation must wait now: interactive work is in flight and no bulk one has aged. */
  #holdsBulk(): boolean {
    if (this.#overtaken >= BULK_PREPARATION_OVERTAKE_LIMIT) return false;
    return this.#interactiveEngaged > 0 || this.#interactiveAdmitted();
  }

  /** Notes that a preparation of `lane` takes its turn (for aging). */
  #counted(lane: Lane): void {
    if (lane === "bulk") this.#overtaken = 0;
    else if (this.#waiters.bulk.length > 0) this.#overtaken += 1;
  }

  /** Waits until the running preparation hands over to this one; rejects with the signal's reason if it aborts first. */
  #turn(lane: Lane, signal: AbortSignal): Promise<void> {
    const waiters = this.#waiters[lane];
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        deferred: false,
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

  /**
   * When no preparation runs, hands the turn to the next waiting one: an aged bulk one first, then
   * interactive ones, then bulk ones unless interactive work holds them; else stays idle.
   */
  #dispatch(): void {
    if (this.#busy) return;
    const aged = this.#waiters.bulk.length > 0 && this.#overtaken >= BULK_PREPARATION_OVERTAKE_LIMIT;
    const order: readonly Lane[] = aged ? ["bulk", "interactive"] : SERVICE_ORDER;
    for (const lane of order) {
      if (lane === "bulk" && this.#holdsBulk()) {
        for (const waiter of this.#waiters.bulk) {
          if (waiter.deferred) continue;
          waiter.deferred = true;
          this.#deferred.bulk += 1;
        }
        continue;
      }
      const waiter = this.#waiters[lane].shift();
      if (waiter !== undefined) {
        this.#busy = true;
        this.#counted(lane);
        waiter.start();
        return;
      }
    }
  }
}

/** One request's place in a {@link PreAdmission}, from arrival to admission (or answer). */
export class PreAdmissionPlace {
  #left = false;
  #engaged = false;

  /** @internal Created by {@link PreAdmission.tryEnter}. */
  constructor(
    private readonly preAdmission: PreAdmission,
    /** The lane the request named. */
    readonly lane: Lane,
  ) {}

  /**
   * Runs `work` (the request's parse and preparation) in its turn: at once when nothing is being
   * prepared, else after the preparation running now and every waiting one that goes before it; a
   * `bulk` one also waits while interactive work is in flight. From this call until the place is
   * left, an `interactive` request holds bulk preparations back.
   *
   * @throws the signal's reason when it aborts before the turn comes (the work never runs);
   *   {@link PreAdmissionFullError} when the lane's waiting room is full; what `work` throws.
   */
  prepare<T>(work: () => Promise<T> | T, signal: AbortSignal): Promise<T> {
    if (!this.#engaged && !this.#left) {
      this.#engaged = true;
      this.preAdmission.engage(this.lane);
    }
    return this.preAdmission.run(this.lane, work, signal);
  }

  /** Gives the place back (the request was admitted, or answered). Safe to call more than once. */
  leave(): void {
    if (this.#left) return;
    this.#left = true;
    this.preAdmission.leave(this.lane, this.#engaged);
  }
}
