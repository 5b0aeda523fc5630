import { Duration } from "aws-cdk-lib";
import { Dashboard, GraphWidget, Stats } from "aws-cdk-lib/aws-cloudwatch";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { IStateMachine } from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import { DECISION_METRICS } from "../constants.js";
import type { PipelineLane, PipelineMetrics } from "./pipelineMetrics.js";

/** Props of {@link PipelineDashboard}. */
export interface PipelineDashboardProps {
  metrics: PipelineMetrics;
  /** Each lane's queue, DLQ and decide function: one row of widgets per lane. */
  lanes: readonly PipelineLane[];
  ingestFunction: IFunction;
  ingestWorkflow: IStateMachine;
}

/**
 * The pipeline's CloudWatch dashboard: decisions by status and the fallback rate, endpoint
 * latency, invocations and errors, group sizes; per lane its queue's depth and age, its send →
 * outcome time (p50, p95) and its decide function's health; the ingest function, and the batch
 * jobs in progress (jobs, lines pending, stalled jobs).
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
    for (const { lane, queue, deadLetterQueue, decideFunction } of props.lanes) {
      this.dashboard.addWidgets(
        new GraphWidget({
          title: `${lane}: queue depth`,
          left: [
            queue.metricApproximateNumberOfMessagesVisible({ label: "waiting", period }),
            queue.metricApproximateNumberOfMessagesNotVisible({ label: "in flight", period }),
            deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: "dead letters", period }),
          ],
          right: [
            queue.metricApproximateAgeOfOldestMessage({
              label: "oldest (s)",
              statistic: Stats.MAXIMUM,
              period,
            }),
          ],
          width: 8,
        }),
        new GraphWidget({
          title: `${lane}: send → outcome (ms)`,
          left: [Stats.p(50), Stats.p(95)].map((statistic) =>
            metrics.sendToOutcome(lane, statistic).with({ label: statistic, period }),
          ),
          width: 8,
        }),
        new GraphWidget({
          title: `${lane}: decide function`,
          left: [
            decideFunction.metricInvocations({ period }),
            decideFunction.metricErrors({ period }),
            decideFunction.metricThrottles({ period }),
          ],
          right: [decideFunction.metricDuration({ statistic: Stats.p(95), period })],
          width: 8,
        }),
      );
    }
    this.dashboard.addWidgets(
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
        width: 24,
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
