import type { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";
import type { PolicyDriftReport } from "../../contract/outcome/driftReport.js";
import type { DriftMonitor } from "./DriftMonitor.js";
import { emitDriftMetrics } from "./emitDriftMetrics.js";

/** What the drift monitor's handler needs. */
export interface DriftMonitorDeps {
  monitor: Pick<DriftMonitor, "check">;
  logger: Logger;
  metrics: Metrics;
}

/** What one scheduled check returns: per policy its largest distance and whether it is over the threshold. */
export interface DriftCheckResult {
  policies: { policy: string; distance: number | null; over_threshold: boolean }[];
}

/**
 * The drift monitor's middy handler (a scheduled EventBridge event in): one {@link DriftMonitor.check},
 * its distances published by Powertools ({@link emitDriftMetrics}).
 */
export function createDriftMonitorHandler(deps: DriftMonitorDeps) {
  return middy<unknown, DriftCheckResult, Error, Context>()
    .use(injectLambdaContext(deps.logger))
    .use(logMetrics(deps.metrics))
    .handler(async () => {
      const reports: PolicyDriftReport[] = await deps.monitor.check();
      emitDriftMetrics(reports, deps.metrics, deps.logger);
      return {
        policies: reports.map((report) => ({
          policy: report.policy,
          distance: report.distance,
          over_threshold: report.over_threshold,
        })),
      };
    });
}
