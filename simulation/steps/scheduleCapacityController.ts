import { planGoalCapacity } from "../../core/capacity/planGoalCapacity.js";
import { planLaneConcurrency } from "../../core/capacity/planLaneConcurrency.js";
import type { EndpointModel } from "../model/EndpointModel.js";
import type { EventSourceModel } from "../model/EventSourceModel.js";
import { TargetTrackingModel } from "../model/TargetTrackingModel.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulatedPipeline } from "./buildPipeline.js";

/** What the capacity controller and the policies it feeds report of a run. */
export interface ControllerCounts {
  /** Checks that planned a lane's concurrency on its minimum (its capacity was Updating). */
  minimumChecks: number;
  /** Scaling activities of the goal policies, and of the step policies scaling a pool out from zero. */
  scaleOuts: number;
  scaleIns: number;
  fromZeroSteps: number;
}

/** The production variant's (or component's) name: it only keys the controller's table. */
const VARIANT = "AllTraffic";

/** One pool of capacity the controller plans for: the lanes it serves and its scaling policies. */
interface PlannedPool {
  endpoint: EndpointModel;
  /** The lanes whose calls it serves, the one served first first. */
  lanes: ReadonlyArray<"interactive" | "bulk">;
  /** Places per instance kept for interactive calls (`planLaneConcurrency`'s reserve). */
  reserve: number;
  goal: TargetTrackingModel;
  /** Scaled out from zero by step scaling on no-capacity failures (its floor is 0). */
  fromZero: boolean;
  lastNoCapacity: number;
  lastStep: number;
}

/**
 * The capacity controller, once a simulated minute in follow mode (never in fixed mode): for each
 * pool of capacity (the one endpoint with `shared`; a pool per lane with `lanes-from-zero`) it
 * reads the instances as DescribeEndpoint gives them and sets each lane's `MaximumConcurrency`
 * with the CDK app's own rule (`planLaneConcurrency`, unless `maxConcurrency` is given), and turns
 * the lanes' backlogs into the `GoalCapacityRatio` data point with the controller's own rule
 * (`planGoalCapacity`), which the pool's one target-tracking policy (target 1) follows. A pool
 * whose floor is 0 is scaled out from zero by a step scaling policy (+1 copy, cooldown as the
 * target tracking's) on an alarm of at least one no-capacity failure in the last minute. Returns
 * its counts, which grow as the run goes.
 */
export function scheduleCapacityController(
  pipeline: SimulatedPipeline,
  inputs: SimulationInputs,
): ControllerCounts {
  const { events, sizing, bulk, interactive, pools } = pipeline;
  const counts: ControllerCounts = { minimumChecks: 0, scaleOuts: 0, scaleIns: 0, fromZeroSteps: 0 };
  if (inputs.capacity !== "follow") return counts;
  const laneLimits = {
    interactive: {
      groupsPerInvocation: sizing.interactive.groupsPerInvocation,
      minConcurrency: sizing.interactive.maxConcurrency,
    },
    bulk: {
      groupsPerInvocation: sizing.bulk.groupsPerInvocation,
      minConcurrency: sizing.bulk.maxConcurrency,
    },
  };
  const goals = { interactive: inputs.interactiveGoalSeconds, bulk: inputs.bulkDrainGoalMinutes * 60 };
  const queues = { interactive: interactive.queue, bulk: bulk.queue };
  const plannedPool = (
    endpoint: EndpointModel,
    lanes: PlannedPool["lanes"],
    reserve: number,
    floor: number,
  ): PlannedPool => ({
    endpoint,
    lanes,
    reserve,
    goal: new TargetTrackingModel({
      target: 1,
      minCapacity: floor,
      maxCapacity: inputs.maxInstances,
      periodSeconds: 60,
      scaleOutCooldownSeconds: inputs.scaleOutCooldownSeconds,
      scaleInCooldownSeconds: inputs.scaleInCooldownSeconds,
    }),
    fromZero: floor === 0,
    lastNoCapacity: 0,
    lastStep: Number.NEGATIVE_INFINITY,
  });
  const planned: PlannedPool[] =
    inputs.layout === "lanes-from-zero"
      ? [
          plannedPool(pools.interactive, ["interactive"], inputs.requestsPerInstance, inputs.minInstances),
          plannedPool(pools.bulk, ["bulk"], 0, 0),
        ]
      : [plannedPool(pools.bulk, ["interactive", "bulk"], inputs.interactiveReserve, inputs.minInstances)];

  const check = (pool: PlannedPool) => {
    const { endpoint } = pool;
    const inService = endpoint.inService();
    const plan = planLaneConcurrency({
      endpoint: {
        status: endpoint.status(),
        variants: [{ name: VARIANT, current: inService, desired: endpoint.desired() }],
      },
      requestsPerInstance: { [VARIANT]: inputs.requestsPerInstance },
      interactiveReserve: pool.reserve,
      lanes: laneLimits,
    });
    if (plan.basis === "minimum") counts.minimumChecks += 1;
    if (inputs.maxConcurrency === undefined) {
      for (const lane of pool.lanes) {
        const source = lane === "bulk" ? bulk.source : interactive.source;
        if (lane === "interactive" && interactive === bulk) continue;
        setConcurrency(source, plan.concurrency[lane]);
      }
    }
    // The step policy on NoCapacityInvocationFailures (a pool at 0 copies): +1 copy.
    const noCapacity = endpoint.noCapacityCalls - pool.lastNoCapacity;
    pool.lastNoCapacity = endpoint.noCapacityCalls;
    if (
      pool.fromZero &&
      noCapacity >= 1 &&
      events.now - pool.lastStep >= inputs.scaleOutCooldownSeconds &&
      endpoint.desired() < inputs.maxInstances
    ) {
      pool.lastStep = events.now;
      counts.fromZeroSteps += 1;
      endpoint.setDesired(endpoint.desired() + 1);
    }
    const goal = planGoalCapacity({
      inService: Math.min(inService, endpoint.desired()),
      demands: pool.lanes.map((lane) => ({ backlog: queues[lane].visible(), goalSeconds: goals[lane] })),
      secondsPerLine: inputs.plannedSecondsPerLine,
      instanceStartSeconds: inputs.instanceStartSeconds,
      maxInstances: inputs.maxInstances,
    });
    const before = { outs: pool.goal.scaleOuts, ins: pool.goal.scaleIns };
    const desired = pool.goal.observe(events.now, goal.ratio, endpoint.desired());
    counts.scaleOuts += pool.goal.scaleOuts - before.outs;
    counts.scaleIns += pool.goal.scaleIns - before.ins;
    if (desired !== undefined) endpoint.setDesired(desired);
  };
  const controllerTick = () => {
    for (const pool of planned) check(pool);
    events.after(60, controllerTick);
  };
  events.after(60, controllerTick);
  return counts;
}

/** `UpdateEventSourceMapping` only when the value changes, as the controller does. */
function setConcurrency(source: EventSourceModel, value: number): void {
  if (value !== source.maxConcurrency()) source.setMaxConcurrency(value);
}
