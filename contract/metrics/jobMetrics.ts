/**
 * Names of the batch jobs' metrics (CloudWatch embedded metric format through Powertools,
 * dimension `service` = `POWERTOOLS_SERVICE_NAME`), read by the alarms and the dashboard.
 */
export const JOB_METRICS = {
  /** Results writer: a job reached a final status (results and manifest written, or `failed`). */
  completedJobs: "JobsCompleted",
  /** Results writer: lines of the results objects written. */
  resultLines: "JobResultLines",
  /** Results writer: milliseconds from a job's last line ending to its final status. */
  resultsLatency: "JobResultsLatency",
  /** Jobs monitor: jobs not final yet (`reading` or `deciding`), at each check. */
  jobsInProgress: "JobsInProgress",
  /** Jobs monitor: lines of those jobs not ended yet, at each check. */
  linesPending: "JobLinesPending",
  /**
   * Jobs monitor: jobs not final whose record has not changed (no line ended, no status moved)
   * for longer than the stall threshold, at each check.
   */
  stalledJobs: "JobsStalled",
} as const;
