/** Metric names the decide function emits (EMF, namespace from `POWERTOOLS_METRICS_NAMESPACE`). */
export const DECIDE_METRICS = {
  /** Count per outcome written, dimensions `policy` and `status`. */
  decisions: "Decisions",
  /** Count of redelivered or duplicate records whose outcome already stood, dimension `policy`. */
  duplicates: "DuplicateOutcomes",
  /** Milliseconds of each successful endpoint attempt. */
  endpointLatency: "EndpointLatency",
  /** Count of endpoint and DynamoDB retries. */
  retries: "Retries",
  /** Work items per endpoint request (a group: one policy, one state). */
  groupSize: "GroupSize",
  /** Endpoint requests per batch. */
  requests: "EndpointRequests",
  /** Records reported in `batchItemFailures`. */
  failedRecords: "FailedRecords",
  /**
   * Records given back because the function cannot work as configured: the endpoint not found or
   * not allowed, the outcomes table missing or not writable, the item's policy not deployed (yet).
   * Counted among `FailedRecords` too; an alarm fires on the first.
   */
  configurationErrors: "ConfigurationErrors",
  /** Records re-queued as delayed copies because the pipeline was busy (deleted, not failed). */
  requeuedRecords: "RequeuedRecords",
  /** Items that came with another payload than the outcome standing for their id (a conflict recorded on it), dimension `policy`. */
  payloadConflicts: "PayloadConflicts",
  /** Outcomes replaced by a redecide or a resubmission with the supersede marker, dimension `policy`. */
  superseded: "SupersededOutcomes",
  /**
   * Milliseconds from the SQS send of an item's message (`SentTimestamp`; for a copy re-queued for
   * capacity, the first message's) to its outcome being written, one value per outcome written,
   * dimension `lane` ({@link DECIDE_METRIC_DIMENSIONS}): what a producer waits. The interactive
   * lane's p95 is alarmed.
   */
  sendToOutcome: "SendToOutcome",
} as const;

/** Dimension names of the decide function's metrics (besides Powertools' `service`). */
export const DECIDE_METRIC_DIMENSIONS = {
  policy: "policy",
  status: "status",
  /** The lane the function drains (`LANE`): `interactive` or `bulk`. */
  lane: "lane",
} as const;
