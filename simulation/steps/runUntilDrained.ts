import { SIMULATION_LIMITS, SimulationBudgetWatch, type SimulationLimits } from "../SimulationBudget.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/** How a run ended. */
export interface RunOutcome {
  /** Events run. */
  events: number;
  /** Whether all of the job's lines ended within `maxHours`. */
  finished: boolean;
  /** When the run stopped (seconds). */
  end: number;
  /** When the job's last line ended (seconds); undefined if the job did not finish. */
  jobEndedAt: number | undefined;
  /** When every pool was back at its minimum after the job (seconds); undefined if never. */
  backToMinAt: number | undefined;
}

/** Simulated seconds the run goes on after the job while the endpoint stays above its minimum. */
const AFTER_JOB_SECONDS = 6 * 3600;

/**
 * Runs the scheduled events until the job has been uploaded (after `--idle-hours`), it and every
 * interactive item sent have ended and every pool is back at its minimum (billed and desired:
 * `minInstances`, 0 for a pool scaled from zero), 6 simulated hours after the job if no scale-in
 * policy brings it there, or `maxHours` have passed.
 *
 * @throws {SimulationBudgetError} once the run passes one of its `limits` (events run, events
 *   waiting, interactive items waiting).
 */
export function runUntilDrained(
  pipeline: SimulatedPipeline,
  inputs: SimulationInputs,
  limits: SimulationLimits = SIMULATION_LIMITS,
): RunOutcome {
  const { events, tally, pools, uploadAt } = pipeline;
  const floors =
    inputs.layout === "lanes-from-zero"
      ? [
          { pool: pools.interactive, min: inputs.minInstances },
          { pool: pools.bulk, min: 0 },
        ]
      : [{ pool: pools.bulk, min: inputs.minInstances }];
  let jobEndedAt: number | undefined;
  let backToMinAt: number | undefined;
  const watch = new SimulationBudgetWatch(inputs, limits);
  const stop = () => {
    watch.afterEvent({
      pendingEvents: events.size,
      interactiveWaiting: tally.interactiveSent - tally.interactiveEnded,
      now: events.now,
    });
    if (events.now < uploadAt) return false;
    if (!tally.jobDone(inputs.lines) || tally.interactiveEnded < tally.interactiveSent) return false;
    jobEndedAt ??= Math.max(uploadAt, tally.lastLineAt);
    if (floors.every(({ pool, min }) => pool.billed() <= min && pool.desired() <= min)) {
      backToMinAt ??= events.now;
      return true;
    }
    return events.now - jobEndedAt > AFTER_JOB_SECONDS;
  };
  const ran = events.runUntil(inputs.maxHours * 3600, stop);
  const finished = tally.jobDone(inputs.lines);
  return {
    events: ran,
    finished,
    end: events.now,
    jobEndedAt: finished ? jobEndedAt : undefined,
    backToMinAt,
  };
}
