import type { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";
import { emitJobsTally } from "./emitJobsTally.js";
import type { JobsCheck, JobsMonitor } from "./JobsMonitor.js";

/** What the jobs monitor's handler needs. */
export interface JobsMonitorDeps {
  monitor: Pick<JobsMonitor, "check">;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The jobs monitor's middy handler (a scheduled EventBridge event in, the tally out): one
 * {@link JobsMonitor.check} (which also ends the jobs whose end check was lost), its metrics
 * published as one EMF document by Powertools.
 */
export function createJobsMonitorHandler(deps: JobsMonitorDeps) {
  return middy<unknown, JobsCheck, Error, Context>()
    .use(injectLambdaContext(deps.logger))
    .use(logMetrics(deps.metrics))
    .handler(async () => {
      const tally = await deps.monitor.check();
      emitJobsTally(tally, deps.metrics, deps.logger);
      return tally;
    });
}
