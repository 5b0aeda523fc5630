import { z } from "zod";
import { EVENT_SOURCE_CONCURRENCY } from "../lanes/eventSourceConcurrency.js";
import type { Setting } from "./Setting.js";
import { integerSetting, nonEmptyTextSetting, textSetting } from "./settingSchemas.js";

/**
 * `<variant>=<requests per instance>` pairs, comma-separated (`AllTraffic=4`): what one instance of
 * each production variant admits at once. A variant whose instances may come from several pools
 * counts its smallest pool's.
 */
export const variantRequestsSetting: z.ZodType<Readonly<Record<string, number>>> = z
  .unknown()
  .transform((value, context) => {
    const text = typeof value === "string" ? value.trim() : "";
    const pairs = text === "" ? [] : text.split(",").map((pair) => pair.trim());
    const requests: Record<string, number> = {};
    for (const pair of pairs) {
      const match = /^([A-Za-z0-9](?:-*[A-Za-z0-9])*)=(\d+)$/.exec(pair);
      const count = match === null ? Number.NaN : Number(match[2]);
      if (match === null || !Number.isSafeInteger(count) || count < 1 || match[1] === undefined) {
        context.addIssue({
          code: "custom",
          message: `must be <variant>=<requests per instance ≥ 1> pairs separated by commas (AllTraffic=4), got ${JSON.stringify(pair)}`,
        });
        return z.NEVER;
      }
      requests[match[1]] = count;
    }
    if (Object.keys(requests).length === 0) {
      context.addIssue({ code: "custom", message: "must name at least one variant (AllTraffic=4)" });
      return z.NEVER;
    }
    return requests;
  });

/** The event source's lowest and highest `MaximumConcurrency` ({@link EVENT_SOURCE_CONCURRENCY}). */
const concurrency = integerSetting(EVENT_SOURCE_CONCURRENCY.min, EVENT_SOURCE_CONCURRENCY.max);

/**
 * The capacity controller's environment (`functions/capacityController/readCapacityControllerConfig.ts`
 * reads it at cold start; the CDK app's `CapacityController` writes it from the endpoint's pools,
 * the knob `interactiveReservePerInstance` and each lane's capacity at minimum, `deriveDecideCapacity`).
 */
export const CAPACITY_CONTROLLER_SETTINGS = {
  endpointName: {
    env: ["ENDPOINT_NAME"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the decision endpoint whose instances the lanes' concurrency follows",
  },
  variantRequests: {
    env: ["VARIANT_REQUESTS_PER_INSTANCE"],
    schema: variantRequestsSetting,
    default: { required: true },
    doc: "`<variant>=<requests>` pairs: requests one instance of each production variant admits (its smallest pool's); instances of a variant not named are not counted",
  },
  interactiveReserve: {
    env: ["INTERACTIVE_RESERVE_PER_INSTANCE"],
    schema: integerSetting(0, 10_000),
    default: { required: true },
    doc: "`SEMIF_INTERACTIVE_RESERVE` of the endpoint's instances: places per instance only interactive calls may take",
  },
  interactiveQueueUrl: {
    env: ["INTERACTIVE_QUEUE_URL"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the interactive lane's work queue, whose visible messages are published",
  },
  bulkQueueUrl: {
    env: ["BULK_QUEUE_URL"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the bulk lane's work queue: its visible messages ÷ InService instances is `BacklogPerInstance`",
  },
  interactiveEventSource: {
    env: ["INTERACTIVE_EVENT_SOURCE_UUID"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "UUID of the interactive decide function's SQS event source mapping",
  },
  bulkEventSource: {
    env: ["BULK_EVENT_SOURCE_UUID"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "UUID of the bulk decide function's SQS event source mapping",
  },
  interactiveGroups: {
    env: ["INTERACTIVE_GROUPS_PER_INVOCATION"],
    schema: integerSetting(1, 1000),
    default: { required: true },
    doc: "`MAX_CONCURRENT_GROUPS` of the interactive decide function: endpoint calls per invocation",
  },
  bulkGroups: {
    env: ["BULK_GROUPS_PER_INVOCATION"],
    schema: integerSetting(1, 1000),
    default: { required: true },
    doc: "`MAX_CONCURRENT_GROUPS` of the bulk decide function: endpoint calls per invocation",
  },
  interactiveMinConcurrency: {
    env: ["INTERACTIVE_MIN_CONCURRENCY"],
    schema: concurrency,
    default: { required: true },
    doc: "the interactive event source's maximum concurrency at the endpoint's minimum capacity (`deriveDecideCapacity`): never set lower, and set when the endpoint's capacity is in doubt",
  },
  bulkMinConcurrency: {
    env: ["BULK_MIN_CONCURRENCY"],
    schema: concurrency,
    default: { required: true },
    doc: "the bulk event source's maximum concurrency at the endpoint's minimum capacity (`deriveDecideCapacity`): never set lower, and set when the endpoint's capacity is in doubt",
  },
  bulkGoalSeconds: {
    env: ["BULK_GOAL_SECONDS"],
    schema: integerSetting(60, 604_800),
    default: { required: true },
    doc: "the bulk lane's drain goal (`bulkDrainGoalMinutes` × 60): instances are bought for a backlog the instances in service would not drain within it (`planGoalCapacity`)",
  },
  interactiveGoalSeconds: {
    env: ["INTERACTIVE_GOAL_SECONDS"],
    schema: integerSetting(1, 86_400),
    default: { required: true },
    doc: "the interactive lane's latency goal (`interactiveLatencyAlarmSeconds`): its backlog, served first, drains within it",
  },
  millisecondsPerLine: {
    env: ["MILLISECONDS_PER_LINE"],
    schema: integerSetting(1, 600_000),
    default: { required: true },
    doc: "milliseconds one instance takes per line (`millisecondsPerLine`, a stated assumption): a backlog's work is its lines × this",
  },
  instanceStartSeconds: {
    env: ["INSTANCE_START_SECONDS"],
    schema: integerSetting(0, 3600),
    default: { required: true },
    doc: "seconds from a scale-out to a new instance in service (`instanceStartSeconds`, a stated assumption): what a bought instance loses of a goal",
  },
  interactiveComponent: {
    env: ["INTERACTIVE_COMPONENT_NAME"],
    schema: textSetting,
    default: { value: "" },
    doc: "with `layout=lanes-from-zero`: the interactive lane's inference component, whose copies (`DescribeInferenceComponent`) the lane's concurrency and `GoalCapacityRatio` (dimension `component`) follow instead of the endpoint's instances. Empty: none (the shared layout)",
  },
  bulkComponent: {
    env: ["BULK_COMPONENT_NAME"],
    schema: textSetting,
    default: { value: "" },
    doc: "with `layout=lanes-from-zero`: the bulk lane's inference component (as `INTERACTIVE_COMPONENT_NAME`). Set both or neither",
  },
  maxInstances: {
    env: ["MAX_INSTANCES"],
    schema: integerSetting(1, 1000),
    default: { required: true },
    doc: "the endpoint's most instances (`maxInstances`): the rule never wants more",
  },
} as const satisfies Record<string, Setting<unknown>>;
