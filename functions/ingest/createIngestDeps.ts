import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type Clock, systemClock } from "../../core/common/Clock.js";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { outcomeWritingOf } from "../../core/jobs/outcomeWritingOf.js";
import { loadPolicies, type PolicySet } from "../../core/policy/index.js";
import type { IngestHandlerDeps } from "./createIngestHandler.js";
import type { IngestConfig } from "./readIngestConfig.js";
import { WorkQueueSender } from "./WorkQueueSender.js";

/** Parts {@link createIngestDeps} builds unless given. */
export interface IngestParts {
  s3?: S3Client;
  sqs?: SQSClient;
  dynamodb?: DynamoDBClient;
  policies?: PolicySet;
  logger?: Logger;
  metrics?: Metrics;
  clock?: Clock;
  /** Called when a job's last line has ended (see `JobLedgerOptions.onEnded`). Default none. */
  onJobEnded?: (jobId: string) => Promise<void>;
}

/**
 * Builds the ingest function's dependencies: clients with the SDK's retries off (one retry policy
 * of ours), the policies, Powertools logger and metrics.
 *
 * @throws PolicyLoadError when the policies do not load.
 */
export async function createIngestDeps(
  config: IngestConfig,
  parts: IngestParts = {},
): Promise<IngestHandlerDeps> {
  const retry = new RetryPolicy({ maxAttempts: config.maxAttempts });
  const documents = DynamoDBDocumentClient.from(parts.dynamodb ?? new DynamoDBClient({ maxAttempts: 1 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const clock = parts.clock ?? systemClock;
  const { outcomes, jobs } = outcomeWritingOf({
    ...config,
    client: documents,
    retry,
    clock,
    onEnded: parts.onJobEnded,
  });
  return {
    s3: parts.s3 ?? new S3Client({ maxAttempts: 1 }),
    sender: new WorkQueueSender(parts.sqs ?? new SQSClient({ maxAttempts: 1 }), config.workQueueUrl, retry),
    outcomes,
    ...(jobs ? { jobs } : {}),
    policies: parts.policies ?? (await loadPolicies(config.policyDir)),
    logger: parts.logger ?? new Logger(),
    metrics: parts.metrics ?? new Metrics(),
    clock,
    maxLinesPerInvocation: config.maxLinesPerInvocation,
    deadlineMarginMs: config.deadlineMarginMs,
  };
}
