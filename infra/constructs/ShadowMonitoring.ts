import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  ComparisonOperator,
  type Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import { SHADOW_METRICS } from "../../contract/metrics/shadowMetrics.js";
import { DECISION_METRICS } from "../constants.js";
import { sageMakerVariantMetric } from "./sageMakerVariantMetric.js";

/** Props of {@link ShadowMonitoring}. */
export interface ShadowMonitoringProps {
  /** `POWERTOOLS_METRICS_NAMESPACE` of the decide functions. */
  metricsNamespace: string;
  /** Names of the deployed policies: the shadow metrics carry the item's policy. */
  policies: readonly string[];
  /** The candidate endpoint's name and variant (its `AWS/SageMaker` metrics). */
  endpointName: string;
  variantName: string;
  /** Where the widgets go. */
  dashboard: Dashboard;
  /** Where the failure-rate alarm notifies (the pipeline's alarm topic). */
  alarmTopic: ITopic;
  /** Alarm when more than this percentage of the shadow records of 15 minutes have no result. Default 50. */
  failureRatePercent?: number;
  /** Fewest shadow records in the window for the failure rate to have a value. Default 10. */
  failureMinRecords?: number;
}

/** The window of the shadow failure rate and the agreement lines. */
export const SHADOW_WINDOW = Duration.minutes(15);

/**
 * What the dashboard and the alarms show of the shadow step, created only with the candidate
 * endpoint (`shadowModelDataUrl`), so that a stack without one is unchanged: a row of three widgets
 * — per policy the candidate's agreement with the live answers (`ShadowAgreement`, percent, average
 * over 15 minutes) and the share of items whose status it would change; the shadow records, failures
 * and timeouts of all policies; the candidate endpoint's invocations, 5xx and model latency — and
 * one alarm on the share of shadow records without a result (the candidate is failing or too slow,
 * so `decisions shadow report` would compare little). The alarm notifies the pipeline's topic; the
 * live outcomes never depend on the candidate.
 */
export class ShadowMonitoring extends Construct {
  /** Fires when more than `failureRatePercent` of the window's shadow records have no result. */
  readonly failureRateAlarm: Alarm;

  constructor(scope: Construct, id: string, props: ShadowMonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const metric = (metricName: string, policy: string, statistic: string, window = period): Metric =>
      new Metric({
        namespace: props.metricsNamespace,
        metricName,
        dimensionsMap: {
          [DECISION_METRICS.serviceDimension]: DECISION_METRICS.decideService,
          [SHADOW_METRICS.policyDimension]: policy,
        },
        statistic,
        period: window,
      });
    // The sum of a count over the policies (metric-math ids: a lower-case letter, then letters, digits, _).
    const total = (metricName: string, label: string, window = period): MathExpression => {
      const usingMetrics = Object.fromEntries(
        props.policies.map((policy, index) => [
          `${metricName.toLowerCase()}_${index}`,
          metric(metricName, policy, Stats.SUM, window),
        ]),
      );
      const expression = Object.keys(usingMetrics)
        .map((name) => `FILL(${name}, 0)`)
        .join(" + ");
      return new MathExpression({ expression, usingMetrics, label, period: window });
    };
    // The endpoint's own metrics (Invocations, Invocation5XXErrors, InvocationModelErrors, ModelLatency
    // in microseconds): https://docs.aws.amazon.com/sagemaker/latest/dg/monitoring-cloudwatch.html
    const endpoint = (metricName: string, statistic: string, label: string): Metric =>
      sageMakerVariantMetric(props, metricName, { statistic, period, label });

    props.dashboard.addWidgets(
      new GraphWidget({
        title: "Shadow: candidate vs live by policy (15 minutes)",
        left: props.policies.map((policy) =>
          metric(SHADOW_METRICS.agreement, policy, Stats.AVERAGE, SHADOW_WINDOW).with({
            label: `${policy} agreement (%)`,
          }),
        ),
        right: props.policies.map((policy) =>
          metric(SHADOW_METRICS.statusChanges, policy, Stats.AVERAGE, SHADOW_WINDOW).with({
            label: `${policy} status changed (share)`,
          }),
        ),
        leftYAxis: { min: 0, max: 100 },
        rightYAxis: { min: 0, max: 1 },
        width: 8,
      }),
      new GraphWidget({
        title: "Shadow: records, failures, timeouts",
        left: [
          total(SHADOW_METRICS.records, "records"),
          total(SHADOW_METRICS.failures, "failures"),
          total(SHADOW_METRICS.timeouts, "timeouts"),
          total(SHADOW_METRICS.notWritten, "not written"),
        ],
        right: [total(SHADOW_METRICS.calls, "candidate calls")],
        width: 8,
      }),
      new GraphWidget({
        title: "Shadow: candidate endpoint",
        left: [
          endpoint("Invocations", Stats.SUM, "invocations"),
          endpoint("Invocation5XXErrors", Stats.SUM, "5xx"),
          endpoint("InvocationModelErrors", Stats.SUM, "ModelError"),
        ],
        right: [endpoint("ModelLatency", Stats.p(95), "ModelLatency p95 (µs)")],
        width: 8,
      }),
    );

    const failures = total(SHADOW_METRICS.failures, "failures", SHADOW_WINDOW);
    const records = total(SHADOW_METRICS.records, "records", SHADOW_WINDOW);
    const minimum = props.failureMinRecords ?? 10;
    const threshold = props.failureRatePercent ?? 50;
    this.failureRateAlarm = new Alarm(this, "FailureRate", {
      metric: new MathExpression({
        // IF without an else leaves no data point below the minimum volume: not breaching. IF and FILL:
        // https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html
        expression: `IF((${records.expression}) >= ${minimum}, 100 * (${failures.expression}) / (${records.expression}))`,
        usingMetrics: { ...failures.usingMetrics, ...records.usingMetrics },
        label: "shadow records without a result (%)",
        period: SHADOW_WINDOW,
      }),
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `More than ${threshold}% of the shadow records of 15 minutes have no result from the candidate (it fails, is missing or answers after SHADOW_TIMEOUT_MS): the live outcomes are unaffected, but decisions shadow report has little to compare. Its failure reasons are in the records (decisions shadow report prints them) and the decide function's logs; docs/changing-models.md says what to check.`,
    });
    const action = new SnsAction(props.alarmTopic);
    this.failureRateAlarm.addAlarmAction(action);
    this.failureRateAlarm.addOkAction(action);
  }
}
