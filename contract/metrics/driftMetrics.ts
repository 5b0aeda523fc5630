/**
 * Names of the drift monitor's metrics (CloudWatch embedded metric format through Powertools,
 * namespace `POWERTOOLS_METRICS_NAMESPACE`, dimension `service` = {@link DRIFT_METRICS.service}),
 * read by the drift alarms. The distance is the Jensen–Shannon divergence in bits (0 to 1) between
 * the last window's outcomes and the baseline's (`core/drift`).
 */
export const DRIFT_METRICS = {
  /** `POWERTOOLS_SERVICE_NAME` of the drift monitor: the `service` dimension of its metrics. */
  service: "drift-monitor",
  /** Per policy and question (dimensions `service`, `policy`, `question`): the question's distance. */
  questionDistance: "AnswerDrift",
  /** Per policy (dimensions `service`, `policy`): the largest distance among its questions; the alarm's metric. */
  policyDistance: "PolicyDrift",
  policyDimension: "policy",
  questionDimension: "question",
} as const;
