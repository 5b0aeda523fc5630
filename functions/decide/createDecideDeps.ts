import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createSageMakerRuntimeClient, EndpointClient } from "../endpoint/index.js";
import { OutcomeStore } from "../outcomes/index.js";
import { loadPolicies, type PolicySet } from "../policy/index.js";
import type { Clock } from "../shared/Clock.js";
import { RetryPolicy } from "../shared/RetryPolicy.js";
import { DecideTelemetry } from "./DecideTelemetry.js";
import type { DecideDeps } from "./decideBatch.js";
import type { DecideConfig } from "./readDecideConfig.js";

/** Parts {@link createDecideDeps} builds unless given (tests and the local stack pass local ones). */
export interface DecideParts {
  /** Default: `createSageMakerRuntimeClient()` (SDK retries off; standard SDK configuration). */
  sagemakerRuntime?: SageMakerRuntimeClient;
  /** Default: a `DynamoDBClient` with `maxAttempts: 1` (standard SDK configuration). */
  dynamodb?: DynamoDBClient;
  /** Default: `loadPolicies(config.policyDir)`. */
  policies?: PolicySet;
  /** Default: a Powertools `Logger` (configured by `POWERTOOLS_*`). */
  logger?: Logger;
  /** Default: a Powertools `Metrics` (configured by `POWERTOOLS_*`). */
  metrics?: Metrics;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * Builds the decide function's dependencies from its configuration: the policies, one retry policy
 * shared by the endpoint client and the outcome store, and the clients (SDK retries off).
 *
 * @throws PolicyLoadError when the policies do not load.
 */
export async function createDecideDeps(config: DecideConfig, parts: DecideParts = {}): Promise<DecideDeps> {
  const retry = new RetryPolicy({
    maxAttempts: config.maxAttempts,
    baseDelayMs: config.retryBaseDelayMs,
    maxDelayMs: config.retryMaxDelayMs,
  });
  const documents = DynamoDBDocumentClient.from(parts.dynamodb ?? new DynamoDBClient({ maxAttempts: 1 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return {
    policies: parts.policies ?? (await loadPolicies(config.policyDir)),
    endpoint: new EndpointClient({
      client: parts.sagemakerRuntime ?? createSageMakerRuntimeClient(),
      endpointName: config.endpointName,
      retry,
    }),
    outcomes: new OutcomeStore({ client: documents, tableName: config.outcomesTable, retry }),
    telemetry: new DecideTelemetry(parts.logger ?? new Logger(), parts.metrics ?? new Metrics()),
    settings: { deadlineMarginMs: config.deadlineMarginMs, maxConcurrentGroups: config.maxConcurrentGroups },
    ...(parts.clock ? { clock: parts.clock } : {}),
  };
}
