/**
 * Names of the capacity controller's metrics (CloudWatch embedded metric format through Powertools,
 * namespace `POWERTOOLS_METRICS_NAMESPACE`, dimension `service` = `POWERTOOLS_SERVICE_NAME` and the
 * dimensions in {@link CAPACITY_METRIC_DIMENSIONS}), published once a minute. The endpoint's
 * goal scaling policy tracks `GoalCapacityRatio`; the dashboard shows them all.
 */
export const CAPACITY_METRICS = {
  /**
   * The instances the lanes' goals want ÷ the instances in service (`planGoalCapacity`): above 1
   * buys, 1 keeps, 0 gives back; dimension `endpoint` (with `layout=lanes-from-zero`, `component`).
   */
  goalCapacityRatio: "GoalCapacityRatio",
  /** The instances the lanes' goals want (0: none beyond the minimum); dimension `endpoint` (or `component`). */
  goalInstances: "GoalInstances",
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
  /** An inference component's name (`layout=lanes-from-zero`). */
  component: "component",
} as const;
