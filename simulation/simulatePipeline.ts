import { checkEventEstimate, SIMULATION_LIMITS, type SimulationLimits } from "./SimulationBudget.js";
import { resolveSimulationInputs, type SimulationInputs } from "./SimulationInputs.js";
import type { SimulationResult } from "./SimulationResult.js";
import { assembleResult } from "./steps/assembleResult.js";
import { buildPipeline } from "./steps/buildPipeline.js";
import { runUntilDrained } from "./steps/runUntilDrained.js";
import { scheduleAutoscaling } from "./steps/scheduleAutoscaling.js";
import { scheduleCapacityController } from "./steps/scheduleCapacityController.js";
import { scheduleIngest } from "./steps/scheduleIngest.js";
import { scheduleInteractiveArrivals } from "./steps/scheduleInteractiveArrivals.js";
import { TimelineSampler } from "./steps/TimelineSampler.js";

/**
 * Simulates one bulk job (and interactive items beside it) through the deployed pipeline — ingest,
 * the SQS queues and event sources, the decide functions with their flow control, the endpoint's
 * instances and autoscaling, the job ledger — as a discrete-event model on simulated time, seeded:
 * the same inputs give the same result, and nothing reads a clock. See docs/simulation.md.
 *
 * The steps schedule their first events in this order, which is part of the result (events at the
 * same time run in the order they were scheduled, and some steps draw from the seeded random).
 *
 * The run is bounded by `limits` ({@link SIMULATION_LIMITS}): inputs that need more events than
 * the budget are refused before anything runs, and a run that passes a bound stops there.
 *
 * @throws {SimulationInputError} for inputs out of range (see {@link resolveSimulationInputs}).
 * @throws {SimulationBudgetError} (a {@link SimulationInputError}) for a run over its limits.
 * @example
 * const result = simulatePipeline({ lines: 100_000, capacity: "follow", maxInstances: 10 });
 * result.job_hours;
 */
export function simulatePipeline(
  partial: Partial<SimulationInputs> = {},
  limits: SimulationLimits = SIMULATION_LIMITS,
): SimulationResult {
  const inputs = resolveSimulationInputs(partial);
  checkEventEstimate(inputs, limits);
  const pipeline = buildPipeline(inputs);
  scheduleIngest(pipeline, inputs);
  scheduleInteractiveArrivals(pipeline, inputs);
  const policies = scheduleAutoscaling(pipeline, inputs);
  const controller = scheduleCapacityController(pipeline, inputs);
  const sampler = new TimelineSampler(pipeline);
  sampler.sample();
  const outcome = runUntilDrained(pipeline, inputs, limits);
  sampler.sample();
  return assembleResult({ inputs, pipeline, policies, controller, outcome, timeline: sampler.points });
}
