import { join } from "node:path";
import { Duration } from "aws-cdk-lib";
import type { Lane } from "../../contract/lanes/lanes.js";
import { deriveComponentDecideCapacity } from "../capacity/deriveComponentDecideCapacity.js";
import {
  type DecideCapacity,
  deriveDecideCapacity,
  type LaneCapacity,
} from "../capacity/deriveDecideCapacity.js";
import { laneBatchSize } from "../capacity/laneBatchSize.js";
import { DecideFunction } from "../constructs/DecideFunction.js";
import { REVIEW_STATES_PREFIX } from "../constructs/IngestBucket.js";
import { WorkQueue } from "../constructs/WorkQueue.js";
import type { DecisionLane } from "./StackParts.js";
import { laneId, perLane, type StackHost, type StackInputs } from "./stackInputs.js";

export type { DecisionLane } from "./StackParts.js";

/** Each lane's work queue and its dead-letter queue (`InteractiveWorkQueue`, `BulkWorkQueue`). */
export function addWorkQueues(
  host: StackHost,
  { settings, functionTimeout, batchingWindow }: StackInputs,
): Record<Lane, WorkQueue> {
  return perLane(
    (lane) =>
      new WorkQueue(host, laneId(lane, "WorkQueue"), {
        consumerTimeout: functionTimeout,
        batchingWindow,
        maxReceiveCount: settings.maxReceiveCount,
        maxMessageBytes: settings.maxMessageBytes,
        retention: Duration.days(settings.queueRetentionDays),
      }),
  );
}

/** Each lane's decide concurrency, from what the decision endpoint admits at minimum capacity. */
export function decideCapacityAtMinimum(
  host: StackHost<"decisionEndpoint">,
  { settings }: StackInputs,
): DecideCapacity {
  const endpoint = host.decisionEndpoint;
  if (settings.layout === "lanes-from-zero") {
    return deriveComponentDecideCapacity({
      interactiveMinCopies: settings.minInstances,
      requestsPerCopy: Math.min(...endpoint.pools.map((pool) => pool.requestsPerInstance)),
      configuredGroupsPerInvocation: settings.maxConcurrentGroups,
    });
  }
  return deriveDecideCapacity({
    minInstances: endpoint.minInstances,
    requestsPerInstanceByPool: endpoint.pools.map((pool) => pool.requestsPerInstance),
    interactiveReservePerInstance: settings.interactiveReservePerInstance,
    configuredGroupsPerInvocation: settings.maxConcurrentGroups,
  });
}

/** What a lane's decide function reads of the stack. */
type DecideHost = StackHost<
  | "decideCapacity"
  | "outcomes"
  | "jobs"
  | "decisionEndpoint"
  | "laneComponents"
  | "shadowEndpoint"
  | "ingestBucket"
>;

/** One decide function per lane (`InteractiveDecide`, `BulkDecide`), each on its lane's queue. */
export function addDecideFunctions(
  host: DecideHost,
  inputs: StackInputs,
  workQueues: Record<Lane, WorkQueue>,
): Record<Lane, DecisionLane> {
  return perLane((lane) => {
    const capacity = host.decideCapacity.lanes[lane];
    const workQueue = workQueues[lane];
    const decide = addDecideFunction(host, inputs, lane, workQueue, capacity);
    return { lane, workQueue, decide, capacity };
  });
}

/** A lane's decide function: scores through the endpoint, writes outcomes and jobs. */
function addDecideFunction(
  host: DecideHost,
  inputs: StackInputs,
  lane: Lane,
  workQueue: WorkQueue,
  capacity: LaneCapacity,
): DecideFunction {
  const { settings, sources, projectRoot, logRetention, functionTimeout, batchingWindow } = inputs;
  return new DecideFunction(host, laneId(lane, "Decide"), {
    entry: sources.decideEntry ?? join(projectRoot, "functions", "decide", "handler.ts"),
    projectRoot,
    lane,
    queue: workQueue.queue,
    table: host.outcomes.table,
    statusIndexArn: host.outcomes.statusIndexArn,
    endpointName: host.decisionEndpoint.endpointName,
    endpointArn: host.decisionEndpoint.endpointArn,
    ...(host.laneComponents !== undefined ? { component: host.laneComponents.lanes[lane] } : {}),
    ...(host.shadowEndpoint !== undefined ? { candidate: host.shadowEndpoint } : {}),
    timeout: functionTimeout,
    memorySize: settings.functionMemoryMb,
    batchSize: laneBatchSize(lane, settings.batchSize, capacity.groupsPerInvocation),
    batchingWindow,
    maxConcurrency: capacity.maxConcurrency,
    maxConcurrentGroups: capacity.groupsPerInvocation,
    metricsNamespace: settings.metricsNamespace,
    logRetention,
    reviewStates: { bucket: host.ingestBucket.bucket, prefix: REVIEW_STATES_PREFIX },
    jobs: { table: host.jobs.table, maxReceiveCount: settings.maxReceiveCount },
  });
}
