import { Duration } from "aws-cdk-lib";
import { Dashboard, GraphWidget, Stats } from "aws-cdk-lib/aws-cloudwatch";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import type { IStateMachine } from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import { DECISION_METRICS } from "../constants.js";
import type { PipelineMetrics } from "./pipelineMetrics.js";

/** Props of {@link PipelineDashboard}. */
export interface PipelineDashboardProps {
  metrics: PipelineMetrics;
  queue: IQueue;
  deadLetterQueue: IQueue;
  decideFunction: IFunction;
  ingestFunction: IFunction;
  ingestWorkflow: IStateMachine;
}

/**
 * The pipeline's CloudWatch dashboard: decisions by status and the fallback rate, endpoint
 * latency, invocations and errors, queue depth and age, group sizes, the functions' health, and
 * the batch jobs in progress (jobs, lines pending, stalled jobs).
 */
export class PipelineDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: PipelineDashboardProps) {
    super(scope, id);
    const { metrics } = props;
    const period = Duration.minutes(1);
    this.dashboard = new Dashboard(this, "Dashboard", { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Decisions by status",
        left: DECISION_METRICS.statuses.map((status) => metrics.decisionsByStatus[status].with({ period })),
        stacked: true,
        width: 12,
      }),
      new GraphWidget({
        title: "Fallback rate by policy (%, 15 minutes)",
        left: Object.values(metrics.fallbackRateByPolicy),
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Endpoint latency",
        left: [Stats.p(50), Stats.p(95), Stats.p(99)].map((statistic) =>
          metrics.endpointLatency(statistic).with({ label: `ModelLatency ${statistic} (µs)`, period }),
        ),
        right: [metrics.functionEndpointLatency.with({ label: "seen by decide, p95 (ms)", period })],
        width: 8,
      }),
      new GraphWidget({
        title: "Endpoint invocations and errors",
        left: [metrics.endpointInvocations.with({ label: "invocations", period })],
        right: [
          metrics.endpoint5xx.with({ label: "5xx", period }),
          metrics.endpointModelErrors.with({ label: "ModelError", period }),
          metrics.retries.with({ label: "decide retries", period }),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: "Group size (items per InvokeEndpoint)",
        left: [
          metrics.groupSize.with({ label: "average", period }),
          metrics.groupSize.with({ label: "maximum", statistic: Stats.MAXIMUM, period }),
        ],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Work queue depth",
        left: [
          props.queue.metricApproximateNumberOfMessagesVisible({ label: "waiting", period }),
          props.queue.metricApproximateNumberOfMessagesNotVisible({ label: "in flight", period }),
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: "dead letters", period }),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: "Age of the oldest work item (s)",
        left: [props.queue.metricApproximateAgeOfOldestMessage({ statistic: Stats.MAXIMUM, period })],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Decide function",
        left: [
          props.decideFunction.metricInvocations({ period }),
          props.decideFunction.metricErrors({ period }),
          props.decideFunction.metricThrottles({ period }),
        ],
        right: [props.decideFunction.metricDuration({ statistic: Stats.p(95), period })],
        width: 12,
      }),
      new GraphWidget({
        title: "Ingest function",
        left: [
          props.ingestFunction.metricInvocations({ period }),
          props.ingestFunction.metricErrors({ period }),
          props.ingestFunction.metricThrottles({ period }),
        ],
        right: [
          props.ingestWorkflow.metricStarted({ label: "workflows started", period }),
          props.ingestWorkflow.metricFailed({ label: "workflows failed", period }),
        ],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Batch jobs (checked every 5 minutes)",
        left: [
          metrics.jobsInProgress.with({ label: "jobs in progress" }),
          metrics.stalledJobs.with({ label: "jobs stalled" }),
        ],
        right: [metrics.jobLinesPending.with({ label: "lines pending" })],
        width: 24,
      }),
    );
  }
}
