/**
 * Names of the capacity controller's metrics (CloudWatch embedded metric format through Powertools,
 * namespace `POWERTOOLS_METRICS_NAMESPACE`, dimension `service` = `POWERTOOLS_SERVICE_NAME` and the
 * dimensions in {@link CAPACITY_METRIC_DIMENSIONS}), published once a minute. The endpoint's
 * backlog scaling policy tracks `BacklogPerInstance`; the dashboard shows them all.
 */
export const CAPACITY_METRICS = {
  /** Visible messages of the bulk lane's queue ÷ the endpoint's InService instances; dimension `endpoint`. */
  backlogPerInstance: "BacklogPerInstance",
  /** The endpoint's InService instances (Σ `CurrentInstanceCount` of its variants); dimension `endpoint`. */
  inServiceInstances: "InServiceInstances",
  /** Visible messages of a lane's queue (`ApproximateNumberOfMessages`); dimension `lane`. */
  queueBacklog: "QueueBacklog",
  /** The maximum concurrency a lane's event source runs with after the check; dimension `lane`. */
  laneConcurrency: "LaneMaxConcurrency",
} as const;

/** Dimension names of the capacity controller's metrics (besides Powertools' `service`). */
export const CAPACITY_METRIC_DIMENSIONS = {
  /** The decision endpoint's name. */
  endpoint: "endpoint",
  /** `interactive` or `bulk`. */
  lane: "lane",
} as const;
