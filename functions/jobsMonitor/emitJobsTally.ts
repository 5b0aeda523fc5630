import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { JOB_METRICS } from "../../contract/metrics/jobMetrics.js";
import type { JobsCheck } from "./JobsMonitor.js";
import type { JobsTally } from "./tallyJobs.js";

/**
 * Adds a check's metrics ({@link JOB_METRICS}: `JobsInProgress`, `JobLinesPending`, `JobsStalled`),
 * zeros included, so the stalled-jobs alarm sees every check and returns to OK once none is
 * stalled; logs the stalled jobs' ids, which the alarm's reader looks up with `decisions jobs show`,
 * and the jobs whose end the check set.
 */
export function emitJobsTally(
  tally: JobsTally & Partial<Pick<JobsCheck, "ended">>,
  metrics: Metrics,
  logger: Logger,
): void {
  metrics.addMetric(JOB_METRICS.jobsInProgress, MetricUnit.Count, tally.inProgress);
  metrics.addMetric(JOB_METRICS.linesPending, MetricUnit.Count, tally.linesPending);
  metrics.addMetric(JOB_METRICS.stalledJobs, MetricUnit.Count, tally.stalled.length);
  if (tally.stalled.length > 0) logger.warn("jobs stalled", { stalled: tally.stalled });
  if (tally.ended !== undefined && tally.ended.length > 0)
    logger.warn("jobs ended by the monitor: every line had ended, the end check had not run", {
      ended: tally.ended,
    });
  logger.info("jobs checked", { inProgress: tally.inProgress, linesPending: tally.linesPending });
}
