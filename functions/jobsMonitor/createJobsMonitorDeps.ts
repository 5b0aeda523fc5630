import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type Clock, systemClock } from "../../core/common/Clock.js";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { JobLedger } from "../../core/jobs/JobLedger.js";
import type { JobsMonitorDeps } from "./createJobsMonitorHandler.js";
import { JobsMonitor } from "./JobsMonitor.js";
import type { JobsMonitorConfig } from "./readJobsMonitorConfig.js";

/** Parts {@link createJobsMonitorDeps} builds unless given (tests pass local clients and clocks). */
export interface JobsMonitorParts {
  dynamodb?: DynamoDBClient;
  clock?: Clock;
  logger?: Logger;
  metrics?: Metrics;
}

/**
 * Builds the jobs monitor's dependencies: a document client (SDK retries off), a job ledger without
 * an outcomes table (it reads jobs, and sets the end of those whose end check was lost), the
 * monitor.
 */
export function createJobsMonitorDeps(
  config: JobsMonitorConfig,
  parts: JobsMonitorParts = {},
): JobsMonitorDeps {
  const client = DynamoDBDocumentClient.from(parts.dynamodb ?? new DynamoDBClient({ maxAttempts: 1 }));
  const clock = parts.clock ?? systemClock;
  const ledger = new JobLedger({
    client,
    jobsTable: config.jobsTable,
    retry: new RetryPolicy({ maxAttempts: 3 }),
    clock,
  });
  return {
    monitor: new JobsMonitor({
      ledger,
      clock,
      stallMinutes: config.stallMinutes,
      lookbackDays: config.lookbackDays,
    }),
    logger: parts.logger ?? new Logger(),
    metrics: parts.metrics ?? new Metrics(),
  };
}
