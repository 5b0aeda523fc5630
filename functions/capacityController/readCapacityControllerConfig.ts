import { CAPACITY_CONTROLLER_SETTINGS } from "../../contract/index.js";
import type { CapacityGoals, LaneLimits, PerLane } from "../../core/capacity/capacityTypes.js";
import { ConfigError } from "../../core/common/ConfigError.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/**
 * The capacity controller's configuration, read once at cold start. Each variable's parser and
 * meaning are its entry in {@link CAPACITY_CONTROLLER_SETTINGS}
 * (`contract/settings/capacityControllerSettings.ts`).
 */
export interface CapacityControllerConfig {
  /** `ENDPOINT_NAME`. */
  endpointName: string;
  /** `VARIANT_REQUESTS_PER_INSTANCE`, by variant name. */
  requestsPerInstance: Readonly<Record<string, number>>;
  /** `INTERACTIVE_RESERVE_PER_INSTANCE`. */
  interactiveReserve: number;
  /** `INTERACTIVE_QUEUE_URL`, `BULK_QUEUE_URL`. */
  queueUrls: PerLane<string>;
  /** `INTERACTIVE_EVENT_SOURCE_UUID`, `BULK_EVENT_SOURCE_UUID`. */
  eventSources: PerLane<string>;
  /** `*_GROUPS_PER_INVOCATION` and `*_MIN_CONCURRENCY`. */
  lanes: PerLane<LaneLimits>;
  /** `BULK_GOAL_SECONDS`, `INTERACTIVE_GOAL_SECONDS`, `MILLISECONDS_PER_LINE`, `INSTANCE_START_SECONDS`, `MAX_INSTANCES`. */
  goals: CapacityGoals;
  /**
   * `INTERACTIVE_COMPONENT_NAME`, `BULK_COMPONENT_NAME`: each lane's inference component
   * (`layout=lanes-from-zero`); undefined when neither is set (the shared layout).
   */
  components?: PerLane<string>;
}

/**
 * Reads and validates the capacity controller's environment (see {@link CapacityControllerConfig}).
 *
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readCapacityControllerConfig(
  env: Readonly<Record<string, string | undefined>>,
): CapacityControllerConfig {
  const values = parseEnvironment("capacity controller", CAPACITY_CONTROLLER_SETTINGS, env);
  if ((values.interactiveComponent === "") !== (values.bulkComponent === "")) {
    const missing = values.interactiveComponent === "" ? "INTERACTIVE_COMPONENT_NAME" : "BULK_COMPONENT_NAME";
    throw new ConfigError("capacity controller", [
      {
        variable: missing,
        message:
          "is empty while the other lane's component is set: set both (layout=lanes-from-zero) or neither (layout=shared)",
      },
    ]);
  }
  return {
    ...(values.interactiveComponent === ""
      ? {}
      : { components: { interactive: values.interactiveComponent, bulk: values.bulkComponent } }),
    endpointName: values.endpointName,
    requestsPerInstance: values.variantRequests,
    interactiveReserve: values.interactiveReserve,
    queueUrls: { interactive: values.interactiveQueueUrl, bulk: values.bulkQueueUrl },
    eventSources: { interactive: values.interactiveEventSource, bulk: values.bulkEventSource },
    lanes: {
      interactive: {
        groupsPerInvocation: values.interactiveGroups,
        minConcurrency: values.interactiveMinConcurrency,
      },
      bulk: { groupsPerInvocation: values.bulkGroups, minConcurrency: values.bulkMinConcurrency },
    },
    goals: {
      goalSeconds: { interactive: values.interactiveGoalSeconds, bulk: values.bulkGoalSeconds },
      secondsPerLine: values.millisecondsPerLine / 1000,
      instanceStartSeconds: values.instanceStartSeconds,
      maxInstances: values.maxInstances,
    },
  };
}
