import { DECIDE_METRICS, type Lane, OUTCOME_STATUSES } from "../contract/index.js";
import { DECIDE_METRIC_DIMENSIONS } from "../contract/metrics/decideMetrics.js";

/**
 * What the alarms and the dashboard read of the decide function's metrics (CloudWatch embedded
 * metric format through Powertools, namespace `POWERTOOLS_METRICS_NAMESPACE`; every metric carries
 * Powertools' default dimension `service` = `POWERTOOLS_SERVICE_NAME`). Metric names come from
 * `contract/metrics/decideMetrics.ts`, which the decide function emits too, so a rename there reaches
 * the alarms.
 */
export const DECISION_METRICS = {
  /** `POWERTOOLS_SERVICE_NAME` of the decide function: the `service` dimension of its metrics. */
  decideService: "decide",
  /** `POWERTOOLS_SERVICE_NAME` of the ingest function. */
  ingestService: "ingest",
  /** `POWERTOOLS_SERVICE_NAME` of the results writer (batch jobs). */
  resultsService: "results",
  /** `POWERTOOLS_SERVICE_NAME` of the jobs monitor (batch jobs). */
  jobsMonitorService: "jobs-monitor",
  /** Powertools' default dimension. */
  serviceDimension: "service",
  /** Count per outcome written, dimensions `service`, `policy`, `status`. */
  decisions: DECIDE_METRICS.decisions,
  policyDimension: "policy",
  statusDimension: "status",
  /** The statuses an outcome is written with. */
  statuses: OUTCOME_STATUSES,
  /** Work items per endpoint request (one policy, one state); dimension `service`. */
  groupSize: DECIDE_METRICS.groupSize,
  /** Milliseconds of each successful endpoint attempt, as the function sees it; dimension `service`. */
  endpointLatency: DECIDE_METRICS.endpointLatency,
  /** Endpoint and DynamoDB retries; dimension `service`. */
  retries: DECIDE_METRICS.retries,
  /** Milliseconds from an item's SQS send to its outcome; dimensions `service`, `lane`. */
  sendToOutcome: DECIDE_METRICS.sendToOutcome,
  laneDimension: DECIDE_METRIC_DIMENSIONS.lane,
} as const;

/** A status an outcome is written with. */
export type DecisionStatus = (typeof OUTCOME_STATUSES)[number];

/** The lane the incident rule sends incidents to: someone waits on each one. */
export const INCIDENT_LANE: Lane = "interactive";
