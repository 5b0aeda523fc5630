import { SqsEventSourcePoller } from "../../local/eventSource/SqsEventSourcePoller.js";
import { createLocalClients } from "../../local/stack/createLocalClients.js";
import { createLocalDecideHandler } from "../../local/stack/createLocalDecideHandler.js";
import { deriveLocalLaneCapacity } from "../../local/stack/deriveLocalLaneCapacity.js";
import type { StackHandlerContext } from "../../local/stack/startLocalStack.js";
import type { FunctionHostConfig, FunctionHostEvent } from "./FunctionHostConfig.js";

/**
 * The function host's work, in its own process: builds the real decide handler on the local
 * endpoints (its Powertools logger at WARN, so every record it gives back to SQS is logged with
 * its message id and reason), runs it under an {@link SqsEventSourcePoller}, and reports each
 * batch's start and end as JSON lines through `emit`. Resolves with a `stop` that drains the
 * poller (SIGTERM); a SIGKILL stops it mid-batch, which is the point.
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
  const context: StackHandlerContext = {
    region: config.region,
    // One lane until chaos covers both: the interactive one, as every call was before lanes.
    lane: "interactive",
    capacity: deriveLocalLaneCapacity().interactive,
    sqs,
    s3,
    dynamodb,
    sagemakerRuntime,
    table: config.table,
    endpointName: config.endpointName,
    queueUrl: config.queueUrl,
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
    environment: config.environment,
  });
  const poller = new SqsEventSourcePoller({
    sqs,
    queueUrl: config.queueUrl,
    queueArn: config.queueArn,
    region: config.region,
    functionTimeoutMs: config.functionTimeoutMs,
    batchSize: config.batchSize,
    maximumBatchingWindowMs: config.maximumBatchingWindowMs,
    maximumConcurrency: config.maximumConcurrency,
    waitTimeSeconds: 1,
    handler: (event, lambdaContext) => {
      emit({ chaos: "batch-start", messages: event.Records.map((record) => record.messageId) });
      return handler(event, lambdaContext);
    },
    onBatch: ({ outcome, deleteFailures }) =>
      emit({
        chaos: "batch-done",
        succeeded: outcome.succeeded
          .map((record) => record.messageId)
          .filter((id) => !deleteFailures.includes(id)),
        failed: outcome.failed.map((record) => record.messageId),
        ...(outcome.wholeBatchFailure !== undefined ? { wholeBatchFailure: outcome.wholeBatchFailure } : {}),
      }),
  }).start();
  emit({ chaos: "ready" });
  return {
    async stop() {
      await poller.stop();
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
