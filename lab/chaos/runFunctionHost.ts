import { LANES } from "../../contract/lanes/lanes.js";
import { SqsEventSourcePoller } from "../../local/eventSource/SqsEventSourcePoller.js";
import { createLocalClients } from "../../local/stack/createLocalClients.js";
import { createLocalDecideHandler } from "../../local/stack/createLocalDecideHandler.js";
import type { StackHandlerContext } from "../../local/stack/startLocalStack.js";
import type { FunctionHostConfig, FunctionHostEvent, LaneHostConfig } from "./FunctionHostConfig.js";

/**
 * The function host's work, in its own process: per lane (interactive and bulk, as the stack runs
 * them), builds the real decide handler of that lane on the local endpoints — it names its lane on
 * every endpoint call, so the adapter serves interactive first; its Powertools logger at WARN, so
 * every record it gives back to SQS is logged with its message id and reason — and runs it under
 * an {@link SqsEventSourcePoller} on the lane's queue, with the lane's share of the adapter
 * ({@link LaneHostConfig}: concurrency and endpoint calls per invocation). Both lanes' handlers
 * call the same gateway (so meet the same injected faults) and live in this one process (so a
 * kill stops both mid-batch). Reports each batch's start and end, with its lane, as JSON lines
 * through `emit`. Resolves with a `stop` that drains both pollers (SIGTERM); a SIGKILL stops them
 * mid-batch, which is the point.
 */
export async function runFunctionHost(
  config: FunctionHostConfig,
  emit: (event: FunctionHostEvent) => void,
): Promise<{ stop(): Promise<void> }> {
  const clients = createLocalClients({
    region: config.region,
    sqs: config.sqsEndpoint,
    s3: config.sqsEndpoint,
    dynamodb: config.dynamodbEndpoint,
    sagemakerRuntime: config.gatewayUrl,
  });
  const cleanups: (() => Promise<void> | void)[] = [() => clients.destroy()];
  const { sqs, s3, dynamodb, sagemakerRuntime } = clients;
  if (sqs === undefined || s3 === undefined || dynamodb === undefined || sagemakerRuntime === undefined) {
    throw new Error("a local client is missing");
  }
  const pollers: SqsEventSourcePoller[] = [];
  for (const lane of LANES) {
    const laneConfig: LaneHostConfig = config.lanes[lane];
    const context: StackHandlerContext = {
      region: config.region,
      lane,
      capacity: {
        calls: laneConfig.maximumConcurrency * laneConfig.maxConcurrentGroups,
        maximumConcurrency: laneConfig.maximumConcurrency,
        maxConcurrentGroups: laneConfig.maxConcurrentGroups,
      },
      sqs,
      s3,
      dynamodb,
      sagemakerRuntime,
      table: config.table,
      endpointName: config.endpointName,
      queueUrl: laneConfig.queueUrl,
      endpoints: {
        sqs: config.sqsEndpoint,
        s3: config.sqsEndpoint,
        dynamodb: config.dynamodbEndpoint,
        sagemakerRuntime: config.gatewayUrl,
      },
      functionTimeoutMs: config.functionTimeoutMs,
      onStop: (cleanup) => cleanups.push(cleanup),
    };
    const handler = await createLocalDecideHandler(context, {
      ...(config.policyDir !== undefined ? { policyDir: config.policyDir } : {}),
      logLevel: "WARN",
      // MAX_CONCURRENT_GROUPS from the lane's capacity, as `decisions up` runs each lane.
      laneGroups: true,
      environment: config.environment,
    });
    pollers.push(
      new SqsEventSourcePoller({
        sqs,
        queueUrl: laneConfig.queueUrl,
        queueArn: laneConfig.queueArn,
        region: config.region,
        functionTimeoutMs: config.functionTimeoutMs,
        functionName: `decide-${lane}`,
        batchSize: laneConfig.batchSize,
        maximumBatchingWindowMs: laneConfig.maximumBatchingWindowMs,
        maximumConcurrency: laneConfig.maximumConcurrency,
        waitTimeSeconds: 1,
        handler: (event, lambdaContext) => {
          emit({ chaos: "batch-start", lane, messages: event.Records.map((record) => record.messageId) });
          return handler(event, lambdaContext);
        },
        onBatch: ({ outcome, deleteFailures }) =>
          emit({
            chaos: "batch-done",
            lane,
            succeeded: outcome.succeeded
              .map((record) => record.messageId)
              .filter((id) => !deleteFailures.includes(id)),
            failed: outcome.failed.map((record) => record.messageId),
            ...(outcome.wholeBatchFailure !== undefined
              ? { wholeBatchFailure: outcome.wholeBatchFailure }
              : {}),
          }),
      }).start(),
    );
  }
  emit({ chaos: "ready" });
  return {
    async stop() {
      await Promise.all(pollers.map((poller) => poller.stop()));
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
