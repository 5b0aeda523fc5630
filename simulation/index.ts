/**
 * A discrete-event simulation of the deployed pipeline (SQS, the event sources, the decide
 * functions' flow control, the endpoint's instances and autoscaling, the job ledger), for sizing
 * what cannot be measured here: see docs/simulation.md. Pure TypeScript on simulated time; it
 * reuses the pipeline's own pure units (deriveDecideCapacity, RetryBudget, RetryPolicy's backoff,
 * CallLatencyEstimate) and imports no AWS SDK.
 */
export { AWS_CONSTANTS, type AwsConstant } from "./awsConstants.js";
export { renderSparkline } from "./chart/renderSparkline.js";
export { renderTimelineSvg, type TimelineSvgOptions } from "./chart/renderTimelineSvg.js";
export { type SimulationBudget, SimulationBudgetError, SimulationInputError } from "./errors.js";
export {
  checkEventEstimate,
  leastEvents,
  SIMULATION_LIMITS,
  type SimulationLimits,
} from "./SimulationBudget.js";
export {
  type CapacityLayout,
  type CapacityMode,
  resolveSimulationInputs,
  SIMULATION_INPUTS,
  type SimulationInputSpec,
  type SimulationInputs,
} from "./SimulationInputs.js";
export type { SimulationResult, TimelinePoint } from "./SimulationResult.js";
export { simulatePipeline } from "./simulatePipeline.js";
