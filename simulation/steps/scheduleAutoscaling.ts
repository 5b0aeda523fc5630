import { AWS_CONSTANTS } from "../awsConstants.js";
import { TargetTrackingModel } from "../model/TargetTrackingModel.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/** The target-tracking policy on `ConcurrentRequestsPerModel` of the code before the controller (fixed mode). */
export interface ConcurrencyPolicy {
  concurrency: TargetTrackingModel;
}

/**
 * Autoscaling of the code before the capacity controller (`--capacity fixed`): a target-tracking
 * policy on `ConcurrentRequestsPerModel`, a data point every 10 simulated seconds (the seconds of
 * calls admitted in those 10 s per InService instance). In follow mode the endpoint has no such
 * policy (the lanes' floors would read as overload): its one policy follows the capacity rule,
 * scheduled with the controller ({@link scheduleCapacityController}); returns undefined then.
 */
export function scheduleAutoscaling(
  pipeline: SimulatedPipeline,
  inputs: SimulationInputs,
): ConcurrencyPolicy | undefined {
  if (inputs.capacity !== "fixed") return undefined;
  const { events } = pipeline;
  const endpoint = pipeline.pools.bulk;
  const concurrency = new TargetTrackingModel({
    target: inputs.targetConcurrentRequests,
    minCapacity: inputs.minInstances,
    maxCapacity: inputs.maxInstances,
    periodSeconds: AWS_CONSTANTS.highResolutionMetricPeriodSeconds.value,
    scaleOutCooldownSeconds: inputs.scaleOutCooldownSeconds,
    scaleInCooldownSeconds: inputs.scaleInCooldownSeconds,
  });
  let lastAdmittedSeconds = 0;
  const concurrencyTick = () => {
    const inService = endpoint.inService();
    const admittedSeconds = endpoint.admittedSeconds();
    const metric = (admittedSeconds - lastAdmittedSeconds) / 10 / Math.max(1, inService);
    lastAdmittedSeconds = admittedSeconds;
    const desired = concurrency.observe(events.now, metric, endpoint.desired());
    if (desired !== undefined) endpoint.setDesired(desired);
    events.after(10, concurrencyTick);
  };
  events.after(10, concurrencyTick);
  return { concurrency };
}
