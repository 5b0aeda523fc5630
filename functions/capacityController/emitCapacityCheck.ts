import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { LANES } from "../../contract/lanes/lanes.js";
import { CAPACITY_METRIC_DIMENSIONS, CAPACITY_METRICS } from "../../contract/metrics/capacityMetrics.js";
import type { CapacityCheck } from "./CapacityController.js";

/**
 * Publishes a check's metrics ({@link CAPACITY_METRICS}) and logs it. `GoalCapacityRatio`,
 * `GoalInstances`, `BacklogPerInstance` and `InServiceInstances` carry the dimension `endpoint`
 * (the goal scaling policy tracks the first with exactly these dimensions: `service` and `endpoint`); `QueueBacklog` and `LaneMaxConcurrency`
 * carry `lane`. With inference components (`layout=lanes-from-zero`) each component's
 * `GoalCapacityRatio` and `GoalInstances` carry `component` instead (its goal scaling policy
 * tracks exactly `service` and `component`), and the counts are copies. A value that was not read is not published: the scaling policy then has no data
 * point, and target tracking does not act on missing data.
 */
export function emitCapacityCheck(
  check: CapacityCheck,
  endpointName: string,
  metrics: Metrics,
  logger: Logger,
): void {
  const endpointMetric = (name: string, value: number) => {
    const metric = metrics.singleMetric();
    metric.addDimension(CAPACITY_METRIC_DIMENSIONS.endpoint, endpointName);
    metric.addMetric(name, MetricUnit.Count, value);
  };
  if (check.goal !== undefined) {
    endpointMetric(CAPACITY_METRICS.goalCapacityRatio, check.goal.ratio);
    endpointMetric(CAPACITY_METRICS.goalInstances, check.goal.wanted);
  }
  for (const lane of LANES) {
    const component = check.components?.[lane];
    if (component?.goal === undefined) continue;
    // Exactly the dimensions the component's goal scaling policy tracks: `service` and `component`.
    const componentMetric = (name: string, value: number) => {
      const metric = metrics.singleMetric();
      metric.addDimension(CAPACITY_METRIC_DIMENSIONS.component, component.name);
      metric.addMetric(name, MetricUnit.Count, value);
    };
    componentMetric(CAPACITY_METRICS.goalCapacityRatio, component.goal.ratio);
    componentMetric(CAPACITY_METRICS.goalInstances, component.goal.wanted);
  }
  if (check.backlogPerInstance !== undefined)
    endpointMetric(CAPACITY_METRICS.backlogPerInstance, check.backlogPerInstance);
  if (check.inServiceInstances !== undefined)
    endpointMetric(CAPACITY_METRICS.inServiceInstances, check.inServiceInstances);
  for (const lane of LANES) {
    const laneMetric = (name: string, value: number) => {
      const metric = metrics.singleMetric();
      metric.addDimension(CAPACITY_METRIC_DIMENSIONS.lane, lane);
      metric.addMetric(name, MetricUnit.Count, value);
    };
    const backlog = check.backlog[lane];
    if (backlog !== undefined) laneMetric(CAPACITY_METRICS.queueBacklog, backlog);
    const change = check.changes[lane];
    if (change !== undefined) laneMetric(CAPACITY_METRICS.laneConcurrency, change.to);
  }
  logger.info("capacity checked", {
    endpointStatus: check.endpoint?.status,
    inServiceInstances: check.inServiceInstances,
    backlog: check.backlog,
    backlogPerInstance: check.backlogPerInstance,
    goal: check.goal,
    components: check.components,
    basis: check.plan.basis,
    doubt: check.plan.doubt,
    instancesCounted: check.plan.instances,
    changes: check.changes,
  });
}
