import { SimulationBudgetError } from "./errors.js";
import type { SimulationInputs } from "./SimulationInputs.js";

/**
 * The bounds of one simulation run, whatever its inputs: in events run (time), in events waiting
 * in the agenda and interactive items waiting in the queues (memory). The defaults keep a run
 * within about a minute and well under 1 GB on a small machine (the default 1,000,000-line job
 * runs about 3.2 million events); see docs/simulation.md.
 */
export interface SimulationLimits {
  /** Events run at most. Default 8,000,000. */
  maxEvents: number;
  /** Events scheduled and not yet run, at most. Default 2,000,000. */
  maxPendingEvents: number;
  /** Interactive items sent and not yet ended, at most. Default 1,000,000. */
  maxInteractiveWaiting: number;
}

/** The default {@link SimulationLimits}. */
export const SIMULATION_LIMITS: SimulationLimits = {
  maxEvents: 8_000_000,
  maxPendingEvents: 2_000_000,
  maxInteractiveWaiting: 1_000_000,
};

/**
 * The fewest events the inputs can need: one per batch of bulk lines (`lines` ÷ `batch-size`),
 * one per simulated second of ingest (`lines` ÷ `ingest-rate`), and one per interactive item sent
 * while ingest runs (`interactive-rate` × that time). A run needs more (calls, retries, scaling);
 * this bound only refuses what cannot fit.
 */
export function leastEvents(inputs: SimulationInputs): { bulk: number; interactive: number } {
  const ingestSeconds = inputs.ingestLinesPerSecond > 0 ? inputs.lines / inputs.ingestLinesPerSecond : 0;
  return {
    bulk: Math.ceil(inputs.lines / inputs.batchSize) + Math.ceil(ingestSeconds),
    interactive: Math.ceil(inputs.interactiveRate * ingestSeconds),
  };
}

/**
 * Refuses inputs whose {@link leastEvents} exceed the event budget, before anything runs.
 *
 * @throws {SimulationBudgetError} naming the flags to lower.
 */
export function checkEventEstimate(inputs: SimulationInputs, limits: SimulationLimits): void {
  const least = leastEvents(inputs);
  const total = least.bulk + least.interactive;
  if (total <= limits.maxEvents) return;
  const interactiveFirst = least.interactive > least.bulk;
  throw new SimulationBudgetError(
    "events",
    interactiveFirst ? "interactive-rate" : "lines",
    `the simulation would need at least ${count(total)} events (${count(least.bulk)} for the job's ${count(inputs.lines)} lines in batches of ${inputs.batchSize} ingested at ${inputs.ingestLinesPerSecond}/s, ${count(least.interactive)} for interactive items at ${inputs.interactiveRate}/s), over its budget of ${count(limits.maxEvents)} events: ${
      interactiveFirst
        ? "lower --interactive-rate (or --lines)"
        : "lower --lines, or raise --batch-size or --ingest-rate"
    }`,
  );
}

/**
 * Watches a run against its limits: `afterEvent` is called after each event and throws once a
 * bound is passed, so a run stops by its budget long before it could run out of time or memory.
 */
export class SimulationBudgetWatch {
  #ran = 0;
  readonly #limits: SimulationLimits;
  readonly #inputs: SimulationInputs;

  constructor(inputs: SimulationInputs, limits: SimulationLimits) {
    this.#inputs = inputs;
    this.#limits = limits;
  }

  /**
   * @param state the agenda's waiting events, the interactive items waiting, simulated time (s).
   * @throws {SimulationBudgetError} naming the bound and the flags to lower.
   */
  afterEvent(state: { pendingEvents: number; interactiveWaiting: number; now: number }): void {
    this.#ran += 1;
    const limits = this.#limits;
    const when = `at simulated hour ${(state.now / 3600).toFixed(1)} of --max-hours ${this.#inputs.maxHours}`;
    if (this.#ran > limits.maxEvents) {
      throw new SimulationBudgetError(
        "events",
        "max-hours",
        `the simulation stopped after its budget of ${count(limits.maxEvents)} events, ${when}, unfinished: lower --max-hours or --lines, or raise the capacity (--prefill-rate, --max-instances) so that the job ends sooner`,
      );
    }
    if (state.pendingEvents > limits.maxPendingEvents) {
      throw new SimulationBudgetError(
        "pending-events",
        "lines",
        `the simulation stopped with ${count(state.pendingEvents)} events waiting, over its bound of ${count(limits.maxPendingEvents)}, ${when}: lower --lines or --max-instances`,
      );
    }
    if (state.interactiveWaiting > limits.maxInteractiveWaiting) {
      throw new SimulationBudgetError(
        "interactive-waiting",
        "interactive-rate",
        `the simulation stopped with ${count(state.interactiveWaiting)} interactive items waiting, over its bound of ${count(limits.maxInteractiveWaiting)}, ${when}: lower --interactive-rate (the endpoint does not keep up with it)`,
      );
    }
  }
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}
