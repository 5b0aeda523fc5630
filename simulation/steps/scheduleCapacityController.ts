import { planLaneConcurrency } from "../../functions/capacityController/planLaneConcurrency.js";
import type { EventSourceModel } from "../model/EventSourceModel.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";
import type { ScalingPolicies } from "./scheduleAutoscaling.js";

/** What the capacity controller reports of a run. */
export interface ControllerCounts {
  /** Checks that planned each lane's concurrency on the endpoint's minimum (it was Updating). */
  minimumChecks: number;
}

/** The endpoint's one production variant, as the CDK app names it (the name only keys the controller's table). */
const VARIANT = "AllTraffic";

/**
 * The capacity controller, once a simulated minute in follow mode (never in fixed mode): the
 * endpoint as DescribeEndpoint gives it, each lane's `MaximumConcurrency` from the CDK app's own
 * rule (`planLaneConcurrency`, unless `maxConcurrency` is given), and the `BacklogPerInstance` data
 * point for the backlog policy. Returns its counts, which grow as the run goes.
 */
export function scheduleCapacityController(
  pipeline: SimulatedPipeline,
  inputs: SimulationInputs,
  policies: ScalingPolicies,
): ControllerCounts {
  const { events, endpoint, sizing, bulk, interactive } = pipeline;
  const counts: ControllerCounts = { minimumChecks: 0 };
  const lanes = {
    interactive: {
      groupsPerInvocation: sizing.interactive.groupsPerInvocation,
      minConcurrency: sizing.interactive.maxConcurrency,
    },
    bulk: {
      groupsPerInvocation: sizing.bulk.groupsPerInvocation,
      minConcurrency: sizing.bulk.maxConcurrency,
    },
  };
  const controllerTick = () => {
    const inService = endpoint.inService();
    const plan = planLaneConcurrency({
      endpoint: {
        status: endpoint.status(),
        variants: [{ name: VARIANT, current: inService, desired: endpoint.desired() }],
      },
      requestsPerInstance: { [VARIANT]: inputs.requestsPerInstance },
      interactiveReserve: inputs.interactiveReserve,
      lanes,
    });
    if (plan.basis === "minimum") counts.minimumChecks += 1;
    if (inputs.maxConcurrency === undefined) {
      setConcurrency(bulk.source, plan.concurrency.bulk);
      if (interactive !== bulk) setConcurrency(interactive.source, plan.concurrency.interactive);
    }
    const metric = bulk.queue.visible() / Math.max(1, inService);
    const desired = policies.backlog?.observe(
      events.now,
      metric,
      inService,
      endpoint.desired(),
      policies.concurrency.wanted,
    );
    if (desired !== undefined) endpoint.setDesired(desired);
    events.after(60, controllerTick);
  };
  if (inputs.capacity === "follow") events.after(60, controllerTick);
  return counts;
}

/** `UpdateEventSourceMapping` only when the value changes, as the controller does. */
function setConcurrency(source: EventSourceModel, value: number): void {
  if (value !== source.maxConcurrency()) source.setMaxConcurrency(value);
}
