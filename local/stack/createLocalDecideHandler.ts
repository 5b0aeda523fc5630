import { join } from "node:path";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { createSageMakerRuntimeClient } from "../../core/endpoint/index.js";
import { createDecideDeps, createDecideHandler, readDecideConfig } from "../../functions/decide/index.js";
import type { SqsBatchHandler } from "../eventSource/SqsEventSourcePoller.js";
import { LOCAL_CREDENTIALS } from "./createLocalClients.js";
import { type StackHandlerContext, withRole } from "./StackHandlerContext.js";

/** Log levels of the decide function's Powertools logger. */
export type FunctionLogLevel = "DEBUG" | "INFO" | "WARN" | "ERROR" | "SILENT";

/** Options of {@link createLocalDecideHandler}. */
export interface LocalDecideHandlerOptions {
  /** The policies folder. Default `<repo>/policies`. */
  policyDir?: string;
  /**
   * The decide function's Powertools log level. Default `"SILENT"`: its JSON logs would mix into
   * the demo's summary and `decisions up`'s one stdout line (Powertools writes to stdout).
   */
  logLevel?: FunctionLogLevel;
  /**
   * More decide function variables (`DEADLINE_MARGIN_MS`, `MAX_CONCURRENT_GROUPS`, `MAX_ATTEMPTS`,
   * …), as the CDK app would set them; validated like the function's own. Default none.
   */
  environment?: Record<string, string>;
  /**
   * Run `context.capacity.maxConcurrentGroups` endpoint calls per invocation (`MAX_CONCURRENT_GROUPS`):
   * the lane's share of the adapter, so that with the stack's poller concurrency the lane stays within
   * it (`decisions up` and `npm start` do). Default false: the function's own default, as the
   * benchmarks that build their own function instances on the context expect. `environment` wins.
   */
  laneGroups?: boolean;
}

/**
 * The real decide handler (`createDecideHandler` over `createDecideDeps`, as the Lambda entry
 * builds it) on the local stack: its configuration as the CDK app sets it (table, endpoint name,
 * policy folder, the context's lane — every endpoint call names it —, the state archive in the
 * stack's bucket, the candidate endpoint of the shadow step when the stack serves one; other settings at their defaults), and its own SageMaker runtime and DynamoDB
 * clients with the SDK's retries off, as in Lambda, pointed at the gateway and DynamoDB Local.
 *
 * @throws PolicyLoadError when the policies do not load; ConfigError for a bad configuration.
 */
export async function createLocalDecideHandler(
  context: StackHandlerContext,
  options: LocalDecideHandlerOptions = {},
): Promise<SqsBatchHandler> {
  const policyDir = options.policyDir ?? join(packageRoot(), "policies");
  const config = readDecideConfig(
    {
      // The whole states of items sent to review go to the stack's bucket (fauxqs keeps them until
      // the stack's data is removed; the deployed bucket expires them by a lifecycle rule).
      ...(context.bucket === undefined ? {} : { STATE_ARCHIVE_BUCKET: context.bucket }),
      ...(context.jobs === undefined
        ? {}
        : { JOBS_TABLE: context.jobs.table, MAX_RECEIVE_COUNT: String(context.jobs.maxReceiveCount) }),
      LANE: context.lane,
      // The candidate the policies' `shadow` sections ask, when the stack serves one.
      ...(context.shadowEndpointName === undefined
        ? {}
        : { SHADOW_ENDPOINT_NAME: context.shadowEndpointName }),
      ...(options.laneGroups === true
        ? { MAX_CONCURRENT_GROUPS: String(context.capacity.maxConcurrentGroups) }
        : {}),
      ...options.environment,
      OUTCOMES_TABLE: context.table,
      ENDPOINT_NAME: context.endpointName,
      POLICY_DIR: policyDir,
    },
    policyDir,
  );
  const common = { region: context.region, credentials: LOCAL_CREDENTIALS };
  // With IAM enforced, these (and the context's SQS and S3 clients) authorize each call as the lane's function.
  const sagemakerRuntime = withRole(
    context,
    createSageMakerRuntimeClient({ ...common, endpoint: context.endpoints.sagemakerRuntime }),
  );
  const dynamodb = withRole(
    context,
    new DynamoDBClient({ ...common, endpoint: context.endpoints.dynamodb, maxAttempts: 1 }),
  );
  context.onStop(() => {
    sagemakerRuntime.destroy();
    dynamodb.destroy();
  });
  const logger = new Logger({ serviceName: "decide", logLevel: options.logLevel ?? "SILENT" });
  const deps = await createDecideDeps(config, {
    sagemakerRuntime,
    dynamodb,
    // Busy records are re-queued to the queue they came from (the lane's, by their eventSourceARN)
    // by the stack's own SQS client.
    sqs: context.sqs,
    s3: context.s3,
    logger,
    // Powertools' own warnings ("No application metrics to publish" after a call that added none)
    // go to the function's logger at its level, not to the console between the command's lines.
    metrics: new Metrics({ namespace: "DecisionPipelineLocal", serviceName: "decide", logger }),
    ...(context.jobs === undefined ? {} : { onJobEnded: context.jobs.onJobEnded }),
  });
  return createDecideHandler(deps);
}
