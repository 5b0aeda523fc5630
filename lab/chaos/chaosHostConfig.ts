import type { Lane } from "../../contract/lanes/lanes.js";
import type { LocalStack } from "../../local/stack/startLocalStack.js";
import type { FunctionHostConfig, LaneHostConfig } from "./FunctionHostConfig.js";

/**
 * Each lane's batching, as the local stack's: interactive one record per invocation and none
 * waited for; bulk 10 records gathered for up to 500 ms (as the CDK app).
 */
const LANE_BATCHING: Record<Lane, Pick<LaneHostConfig, "batchSize" | "maximumBatchingWindowMs">> = {
  interactive: { batchSize: 1, maximumBatchingWindowMs: 0 },
  bulk: { batchSize: 10, maximumBatchingWindowMs: 500 },
};
/** A lane's queue and event source mapping in the function host: its batching and its share of the adapter. */
function laneHostConfig(stack: LocalStack, lane: Lane): LaneHostConfig {
  const { queueUrl, queueArn, capacity } = stack.lanes[lane];
  return {
    queueUrl,
    queueArn,
    ...LANE_BATCHING[lane],
    maximumConcurrency: capacity.maximumConcurrency,
    maxConcurrentGroups: capacity.maxConcurrentGroups,
  };
}

/**
 * The function host's configuration on the running stack: its endpoints, table and endpoint name,
 * the policies, the decide function's timeout and deadline margin, and each lane's share of the
 * adapter as the stack sizes it (interactive in the reserved places).
 */
export function chaosHostConfig(
  stack: LocalStack,
  settings: { policyDir: string; functionTimeoutMs: number; deadlineMarginMs: number },
): FunctionHostConfig {
  return {
    region: stack.region,
    sqsEndpoint: stack.sqsEndpoint,
    dynamodbEndpoint: stack.dynamodbEndpoint,
    gatewayUrl: stack.gatewayUrl,
    table: stack.table,
    endpointName: stack.endpointName,
    policyDir: settings.policyDir,
    functionTimeoutMs: settings.functionTimeoutMs,
    lanes: {
      interactive: laneHostConfig(stack, "interactive"),
      bulk: laneHostConfig(stack, "bulk"),
    },
    environment: { DEADLINE_MARGIN_MS: String(settings.deadlineMarginMs) },
  };
}
