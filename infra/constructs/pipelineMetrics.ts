import { Duration } from "aws-cdk-lib";
import { MathExpression, Metric, Stats } from "aws-cdk-lib/aws-cloudwatch";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import type { Lane } from "../../contract/lanes/lanes.js";
import { JOB_METRICS } from "../../contract/metrics/jobMetrics.js";
import { DECISION_METRICS, type DecisionStatus } from "../constants.js";
import { sageMakerVariantMetric } from "./sageMakerVariantMetric.js";

/** One lane as the alarms and the dashboard watch it: its queue, DLQ and decide function. */
export interface PipelineLane {
  lane: Lane;
  queue: IQueue;
  deadLetterQueue: IQueue;
  decideFunction: IFunction;
}

/** Metrics of the pipeline, shared by the alarms and the dashboard. */
export interface PipelineMetrics {
  /** Decisions of all policies by status (a sum over the policies). */
  decisionsByStatus: Record<DecisionStatus, MathExpression>;
  /**
   * Per policy: the percentage of its decisions that were `fallback`, over 15 minutes; no data point
   * when the policy made fewer than `fallbackMinDecisions` decisions (1 of 2 is no 50% trend).
   */
  fallbackRateByPolicy: Record<string, MathExpression>;
  groupSize: Metric;
  /** Endpoint latency as the decide function measures it (ms). */
  functionEndpointLatency: Metric;
  retries: Metric;
  endpointInvocations: Metric;
  endpoint5xx: Metric;
  endpointModelErrors: Metric;
  /** SageMaker's ModelLatency (microseconds) with the given statistic. */
  endpointLatency: (statistic: string) => Metric;
  /** The decide function's `SendToOutcome` of a lane (ms: an item's SQS send to its outcome) with the given statistic. */
  sendToOutcome: (lane: Lane, statistic: string) => Metric;
  /** The jobs monitor's checks (maximum over 5 minutes): jobs not final, their lines not ended, stalled jobs. */
  jobsInProgress: Metric;
  jobLinesPending: Metric;
  stalledJobs: Metric;
}

/** Where the metrics come from. */
export interface PipelineMetricsProps {
  metricsNamespace: string;
  /** Names of the deployed policies (`Decisions` is emitted per policy). */
  policies: readonly string[];
  endpointName: string;
  variantName: string;
  /** Fewest decisions of a policy in the window for its fallback rate to have a value. Default 1. */
  fallbackMinDecisions?: number;
}

/** The window of the fallback rate. */
export const FALLBACK_RATE_WINDOW = Duration.minutes(15);

/**
 * Builds the pipeline's metrics: the decide function's EMF metrics (`Decisions` per policy and
 * status, `GroupSize`, `EndpointLatency`, `Retries`, `SendToOutcome` per lane), the endpoint's (`AWS/SageMaker`) and the jobs
 * monitor's (`JobsInProgress`, `JobLinesPending`, `JobsStalled`).
 */
export function pipelineMetrics(props: PipelineMetricsProps): PipelineMetrics {
  const period = Duration.minutes(5);
  const service = { [DECISION_METRICS.serviceDimension]: DECISION_METRICS.decideService };
  const decisions = (policy: string, status: DecisionStatus, window = period): Metric =>
    new Metric({
      namespace: props.metricsNamespace,
      metricName: DECISION_METRICS.decisions,
      dimensionsMap: {
        ...service,
        [DECISION_METRICS.policyDimension]: policy,
        [DECISION_METRICS.statusDimension]: status,
      },
      statistic: Stats.SUM,
      period: window,
    });
  // Metric-math ids must start with a lower-case letter and hold only letters, digits and `_`.
  const id = (index: number, status: string) => `p${index}_${status}`;

  const decisionsByStatus = Object.fromEntries(
    DECISION_METRICS.statuses.map((status) => {
      const usingMetrics = Object.fromEntries(
        props.policies.map((policy, index) => [id(index, status), decisions(policy, status)]),
      );
      const expression = Object.keys(usingMetrics)
        .map((name) => `FILL(${name}, 0)`)
        .join(" + ");
      return [status, new MathExpression({ expression, usingMetrics, label: status, period })];
    }),
  ) as Record<DecisionStatus, MathExpression>;

  const fallbackRateByPolicy = Object.fromEntries(
    props.policies.map((policy, index) => {
      const usingMetrics = Object.fromEntries(
        DECISION_METRICS.statuses.map((status) => [
          id(index, status),
          decisions(policy, status, FALLBACK_RATE_WINDOW),
        ]),
      );
      const total = DECISION_METRICS.statuses.map((status) => `FILL(${id(index, status)}, 0)`).join(" + ");
      const minimum = props.fallbackMinDecisions ?? 1;
      return [
        policy,
        new MathExpression({
          // IF without an else leaves no data point below the minimum volume: not breaching.
          expression: `IF((${total}) >= ${minimum}, 100 * FILL(${id(index, "fallback")}, 0) / (${total}))`,
          usingMetrics,
          label: `${policy} fallback rate (%)`,
          period: FALLBACK_RATE_WINDOW,
        }),
      ];
    }),
  );

  const own = (metricName: string, statistic: string): Metric =>
    new Metric({ namespace: props.metricsNamespace, metricName, dimensionsMap: service, statistic, period });
  const endpoint = (metricName: string, statistic: string): Metric =>
    sageMakerVariantMetric(props, metricName, { statistic, period });
  const jobs = (metricName: string): Metric =>
    new Metric({
      namespace: props.metricsNamespace,
      metricName,
      dimensionsMap: { [DECISION_METRICS.serviceDimension]: DECISION_METRICS.jobsMonitorService },
      statistic: Stats.MAXIMUM,
      period,
    });
  return {
    decisionsByStatus,
    fallbackRateByPolicy,
    groupSize: own(DECISION_METRICS.groupSize, Stats.AVERAGE),
    functionEndpointLatency: own(DECISION_METRICS.endpointLatency, Stats.p(95)),
    retries: own(DECISION_METRICS.retries, Stats.SUM),
    endpointInvocations: endpoint("Invocations", Stats.SUM),
    endpoint5xx: endpoint("Invocation5XXErrors", Stats.SUM),
    // SageMaker's count of ModelError answers (the container answered non-2xx, or timed out).
    endpointModelErrors: endpoint("InvocationModelErrors", Stats.SUM),
    endpointLatency: (statistic) => endpoint("ModelLatency", statistic),
    sendToOutcome: (lane, statistic) =>
      new Metric({
        namespace: props.metricsNamespace,
        metricName: DECISION_METRICS.sendToOutcome,
        dimensionsMap: { ...service, [DECISION_METRICS.laneDimension]: lane },
        statistic,
        period,
      }),
    jobsInProgress: jobs(JOB_METRICS.jobsInProgress),
    jobLinesPending: jobs(JOB_METRICS.linesPending),
    stalledJobs: jobs(JOB_METRICS.stalledJobs),
  };
}
