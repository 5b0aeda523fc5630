/**
 * Names of the ingest function's metrics (CloudWatch embedded metric format through Powertools,
 * dimension `service` = `POWERTOOLS_SERVICE_NAME`), read by the alarms.
 */
export const INGEST_METRICS = {
  /** Lines sent to the work queue. */
  ingestedLines: "IngestedLines",
  /** Lines recorded as `rejected` outcomes (bad lines, lines the work queue refused for good). */
  rejectedLines: "IngestRejectedLines",
  /**
   * Lines neither sent nor recorded by an invocation (a send or an outcome write kept failing for
   * now): read again from the invocation's checkpoint, but a sign that something is wrong.
   */
  unsentLines: "IngestUnsentLines",
} as const;
