import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { SageMakerClient } from "@aws-sdk/client-sagemaker";
import { SQSClient } from "@aws-sdk/client-sqs";
import { CapacityController } from "./CapacityController.js";
import type { CapacityControllerDeps } from "./createCapacityControllerHandler.js";
import { LambdaEventSourceConcurrency } from "./LambdaEventSourceConcurrency.js";
import type { CapacityControllerConfig } from "./readCapacityControllerConfig.js";
import { SageMakerComponentReader } from "./SageMakerComponentReader.js";
import { SageMakerEndpointReader } from "./SageMakerEndpointReader.js";
import { SqsBacklogReader } from "./SqsBacklogReader.js";

/** Parts {@link createCapacityControllerDeps} builds unless given (tests pass local or fake clients). */
export interface CapacityControllerParts {
  sagemaker?: Pick<SageMakerClient, "send">;
  sqs?: Pick<SQSClient, "send">;
  lambda?: Pick<LambdaClient, "send">;
  logger?: Logger;
  metrics?: Metrics;
}

/**
 * Builds the capacity controller's dependencies: SageMaker, SQS and Lambda clients (the SDK's
 * standard retries: a check runs every minute and has nothing better to do than retry a throttled
 * read), their ports and the controller.
 */
export function createCapacityControllerDeps(
  config: CapacityControllerConfig,
  parts: CapacityControllerParts = {},
): CapacityControllerDeps {
  const sagemaker = parts.sagemaker ?? new SageMakerClient({});
  return {
    controller: new CapacityController({
      endpoint: new SageMakerEndpointReader(sagemaker, config.endpointName),
      ...(config.components === undefined
        ? {}
        : {
            components: {
              reader: new SageMakerComponentReader(sagemaker, config.components),
              names: config.components,
            },
          }),
      queues: new SqsBacklogReader(parts.sqs ?? new SQSClient({}), config.queueUrls),
      eventSources: new LambdaEventSourceConcurrency(
        parts.lambda ?? new LambdaClient({}),
        config.eventSources,
      ),
      requestsPerInstance: config.requestsPerInstance,
      interactiveReserve: config.interactiveReserve,
      lanes: config.lanes,
      goals: config.goals,
    }),
    endpointName: config.endpointName,
    logger: parts.logger ?? new Logger(),
    metrics: parts.metrics ?? new Metrics(),
  };
}
