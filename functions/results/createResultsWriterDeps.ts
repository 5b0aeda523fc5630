import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { JobLedger } from "../../core/jobs/JobLedger.js";
import { JobResultsWriter } from "../../core/jobs/JobResultsWriter.js";
import type { ResultsWriterConfig } from "./readResultsWriterConfig.js";
import type { EndedJobsDeps } from "./writeEndedJobs.js";

/** Parts {@link createResultsWriterDeps} builds unless given (tests pass local clients). */
export interface ResultsWriterParts {
  s3?: S3Client;
  dynamodb?: DynamoDBClient;
  logger?: Logger;
  metrics?: Metrics;
}

/**
 * Builds the results writer's dependencies: clients with the SDK's retries off (one retry policy
 * of ours), a job ledger without an outcomes table (the writer reads the jobs table's line items
 * and completes jobs, nothing else), and the writer, which writes where the job's object came
 * from (`s3://<ingest bucket>/results/<job_id>/`). It publishes nothing: on AWS the jobs table's
 * stream carries the final status to the outcomes bus (the completion Pipe).
 */
export function createResultsWriterDeps(
  config: ResultsWriterConfig,
  parts: ResultsWriterParts = {},
): EndedJobsDeps {
  const documents = DynamoDBDocumentClient.from(parts.dynamodb ?? new DynamoDBClient({ maxAttempts: 1 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const ledger = new JobLedger({
    client: documents,
    jobsTable: config.jobsTable,
    retry: new RetryPolicy({ maxAttempts: config.maxAttempts }),
  });
  return {
    writer: new JobResultsWriter({ ledger, s3: parts.s3 ?? new S3Client({ maxAttempts: 1 }) }),
    logger: parts.logger ?? new Logger(),
    metrics: parts.metrics ?? new Metrics(),
  };
}
