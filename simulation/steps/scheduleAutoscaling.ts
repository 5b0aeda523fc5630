import { AWS_CONSTANTS } from "../awsConstants.js";
import { TargetTrackingModel } from "../model/TargetTrackingModel.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/** The endpoint's target-tracking policies: one on concurrency, and in follow mode one on backlog. */
export interface ScalingPolicies {
  /** On `ConcurrentRequestsPerModel` (10-second points), in both capacity modes. */
  concurrency: TargetTrackingModel;
  /** On `BacklogPerInstance` (a point a minute, published by the controller); follow mode only. */
  backlog: TargetTrackingModel | undefined;
}

/**
 * Autoscaling: builds the endpoint's target-tracking policies and schedules the concurrency
 * policy's data point every 10 simulated seconds (the seconds of calls admitted in those 10 s per
 * InService instance), floored by what the backlog policy wants. The backlog policy's data points
 * come from the capacity controller (see {@link scheduleCapacityController}).
 */
export function scheduleAutoscaling(pipeline: SimulatedPipeline, inputs: SimulationInputs): ScalingPolicies {
  const { events, endpoint } = pipeline;
  const policy = (target: number, periodSeconds: number) =>
    new TargetTrackingModel({
      target,
      minCapacity: inputs.minInstances,
      maxCapacity: inputs.maxInstances,
      periodSeconds,
      scaleOutCooldownSeconds: inputs.scaleOutCooldownSeconds,
      scaleInCooldownSeconds: inputs.scaleInCooldownSeconds,
    });
  const concurrency = policy(
    inputs.targetConcurrentRequests,
    AWS_CONSTANTS.highResolutionMetricPeriodSeconds.value,
  );
  const backlog = inputs.capacity === "follow" ? policy(inputs.backlogPerInstanceTarget, 60) : undefined;
  let lastAdmittedSeconds = 0;
  const concurrencyTick = () => {
    const inService = endpoint.inService();
    const admittedSeconds = endpoint.admittedSeconds();
    const metric = (admittedSeconds - lastAdmittedSeconds) / 10 / Math.max(1, inService);
    lastAdmittedSeconds = admittedSeconds;
    const desired = concurrency.observe(
      events.now,
      metric,
      inService,
      endpoint.desired(),
      backlog?.wanted ?? 0,
    );
    if (desired !== undefined) endpoint.setDesired(desired);
    events.after(10, concurrencyTick);
  };
  events.after(10, concurrencyTick);
  return { concurrency, backlog };
}
