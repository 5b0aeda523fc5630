import { join } from "node:path";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { CapacityController } from "../constructs/CapacityController.js";
import { perLane, type StackHost, type StackInputs } from "./stackInputs.js";

/**
 * The capacity controller over the decision endpoint and both lanes: each variant admits what its
 * smallest pool's instances admit; each lane's floor and groups are its capacity at minimum. Its
 * error alarm notifies the alarm topic; its row is added to the dashboard.
 */
export function addCapacityController(
  host: StackHost<"decisionEndpoint" | "laneComponents" | "lanes" | "alarms" | "dashboard">,
  { settings, sources, projectRoot, logRetention }: StackInputs,
): CapacityController {
  const endpoint = host.decisionEndpoint;
  const controller = new CapacityController(host, "CapacityController", {
    entry:
      sources.capacityControllerEntry ?? join(projectRoot, "functions", "capacityController", "handler.ts"),
    projectRoot,
    endpointName: endpoint.endpointName,
    endpointArn: endpoint.endpointArn,
    endpointPhysicalName: endpoint.physicalName,
    ...(host.laneComponents !== undefined ? { components: host.laneComponents.lanes } : {}),
    requestsPerInstanceByVariant: {
      [endpoint.variantName]: Math.min(...endpoint.pools.map((pool) => pool.requestsPerInstance)),
    },
    interactiveReservePerInstance: settings.interactiveReservePerInstance,
    goals: {
      bulkSeconds: settings.bulkDrainGoalMinutes * 60,
      interactiveSeconds: settings.interactiveLatencyAlarmSeconds,
      millisecondsPerLine: settings.millisecondsPerLine,
      instanceStartSeconds: settings.instanceStartSeconds,
      maxInstances: settings.maxInstances,
    },
    lanes: perLane((lane) => ({
      queue: host.lanes[lane].workQueue.queue,
      eventSource: host.lanes[lane].decide.eventSource,
      capacity: host.lanes[lane].capacity,
    })),
    metricsNamespace: settings.metricsNamespace,
    logRetention,
  });
  const action = new SnsAction(host.alarms.topic);
  controller.errors.addAlarmAction(action);
  controller.errors.addOkAction(action);
  host.dashboard.dashboard.addWidgets(...controller.widgets());
  return controller;
}
