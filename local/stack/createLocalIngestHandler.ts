import { join } from "node:path";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import type { Context } from "aws-lambda";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import {
  createIngestDeps,
  createIngestHandler,
  type IngestResult,
  readIngestConfig,
} from "../../functions/ingest/index.js";
import { LOCAL_CREDENTIALS } from "./createLocalClients.js";
import type { FunctionLogLevel } from "./createLocalDecideHandler.js";
import { type StackHandlerContext, withRole } from "./StackHandlerContext.js";

/** The ingest function as the local stack runs it: invoke it, then close its clients. */
export interface LocalIngestHandler {
  invoke(event: unknown, context: Context): Promise<IngestResult>;
  close(): void;
}

/** Options of {@link createLocalIngestHandler}. */
export interface LocalIngestHandlerOptions {
  /** The policies folder. Default `<repo>/policies`. */
  policyDir?: string;
  /** The ingest function's Powertools log level. Default `"SILENT"`. */
  logLevel?: FunctionLogLevel;
}

/**
 * The real ingest handler (`createIngestHandler` over `createIngestDeps`, as its Lambda entry
 * builds it) on the local stack: the work queue and outcomes table of the stack, and its own S3,
 * SQS and DynamoDB clients with the SDK's retries off, pointed at fauxqs and DynamoDB Local.
 *
 * @throws PolicyLoadError when the policies do not load; ConfigError for a bad configuration.
 */
export async function createLocalIngestHandler(
  context: Pick<StackHandlerContext, "region" | "table" | "queueUrl" | "endpoints" | "jobs" | "iam">,
  options: LocalIngestHandlerOptions = {},
): Promise<LocalIngestHandler> {
  const policyDir = options.policyDir ?? join(packageRoot(), "policies");
  const config = readIngestConfig(
    {
      WORK_QUEUE_URL: context.queueUrl,
      OUTCOMES_TABLE: context.table,
      POLICY_DIR: policyDir,
      ...(context.jobs === undefined ? {} : { JOBS_TABLE: context.jobs.table }),
    },
    policyDir,
  );
  const common = { region: context.region, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
  // With IAM enforced (`context.iam`: the ingest function's role), each call is authorized as it.
  const s3 = withRole(
    context,
    new S3Client({ ...common, endpoint: context.endpoints.s3, forcePathStyle: true }),
  );
  const sqs = withRole(
    context,
    new SQSClient({ ...common, endpoint: context.endpoints.sqs, useQueueUrlAsEndpoint: false }),
  );
  const dynamodb = withRole(context, new DynamoDBClient({ ...common, endpoint: context.endpoints.dynamodb }));
  const logger = new Logger({ serviceName: "ingest", logLevel: options.logLevel ?? "SILENT" });
  const deps = await createIngestDeps(config, {
    s3,
    sqs,
    dynamodb,
    logger,
    // Powertools' own warnings ("No application metrics to publish" after a call that added none)
    // go to the function's logger at its level, not to the console between the command's lines.
    metrics: new Metrics({ namespace: "DecisionPipelineLocal", serviceName: "ingest", logger }),
    ...(context.jobs === undefined ? {} : { onJobEnded: context.jobs.onJobEnded }),
  });
  const handler = createIngestHandler(deps);
  return {
    invoke: (event, lambdaContext) => handler(event, lambdaContext),
    close() {
      s3.destroy();
      sqs.destroy();
      dynamodb.destroy();
    },
  };
}
