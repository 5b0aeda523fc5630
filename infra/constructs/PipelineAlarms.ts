import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  ComparisonOperator,
  type MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import type { IStateMachine } from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import type { Lane } from "../../contract/lanes/lanes.js";
import { DECIDE_METRICS } from "../../contract/metrics/decideMetrics.js";
import { INGEST_METRICS } from "../../contract/metrics/ingestMetrics.js";
import { DECISION_METRICS } from "../constants.js";
import { type PipelineLane, type PipelineMetrics, pipelineMetrics } from "./pipelineMetrics.js";

/** One alarm of {@link PipelineAlarms}, before it is made. */
interface AlarmDefinition {
  metric: Metric | MathExpression;
  threshold: number;
  periods: number;
  description: string;
  /** Alarm above the threshold only (a rate, a latency); default: at or above it (a count). */
  above?: boolean;
}

/** Props of {@link PipelineAlarms}. */
export interface PipelineAlarmsProps {
  /** Each lane's queue, DLQ and decide function: alarmed per lane. */
  lanes: readonly PipelineLane[];
  /** Stream records the outcomes Pipe could not deliver to the bus. */
  undeliveredOutcomes: IQueue;
  /** Stream records of jobs whose results the results writer could not write. */
  unwrittenJobResults: IQueue;
  /** Stream records of completed jobs the job events Pipe could not deliver to the bus. */
  undeliveredJobEvents: IQueue;
  /** The decision endpoint's own alarms (error rates; they also roll back its updates). */
  endpointAlarms: readonly Alarm[];
  endpointName: string;
  variantName: string;
  ingestFunction: IFunction;
  /** The jobs monitor: an error means no stalled-jobs check ran. */
  jobsMonitorFunction: IFunction;
  /** The ingest workflow: an execution that fails leaves a batch file partly ingested. */
  ingestWorkflow: IStateMachine;
  metricsNamespace: string;
  /** Names of the deployed policies: one fallback-rate alarm each. */
  policies: readonly string[];
  /** Alarm when a lane's oldest message is older than its age here. */
  oldestMessageAge: Readonly<Record<Lane, Duration>>;
  /** Alarm when the p95 of the interactive lane's send → outcome time is above this (two 5-minute periods). */
  interactiveLatency: Duration;
  /** Alarm when more than this percentage of a policy's decisions are `fallback` (15-minute window). */
  fallbackRatePercent: number;
  /** The fallback-rate alarm waits for this many decisions of the policy in the window. */
  fallbackMinDecisions: number;
  /** The jobs monitor's stall threshold, for the alarm's description. */
  jobStallMinutes: number;
  /** Subscribed to the alarm topic when given. */
  email: string | undefined;
}

/**
 * The pipeline's alarms, all on one SNS topic (TLS only; an e-mail subscription when configured):
 * per lane, its DLQ holds a message, its oldest work item waits longer than the lane's age, its
 * decide function errors or is throttled; the interactive lane's p95 send → outcome time is above
 * its threshold; the outcomes Pipe could not deliver
 * a record, or the results writer gave up on a job, or a job's completion event could not be published (every queue of the stack has an alarm); the endpoint's 5xx or ModelError rate is high
 * (its own alarms, with a minimum volume); the ingest function errors or is throttled; a
 * decide function meets a configuration error (endpoint, table or policy not as configured); a
 * policy's fallback rate is above the threshold with enough decisions to mean something; a batch
 * job stalls (the jobs monitor's `JobsStalled` ≥ 1) or the jobs monitor fails.
 */
export class PipelineAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Record<string, Alarm>;
  readonly metrics: PipelineMetrics;

  constructor(scope: Construct, id: string, props: PipelineAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, "Topic", { displayName: "Decision pipeline alarms", enforceSSL: true });
    if (props.email !== undefined) this.topic.addSubscription(new EmailSubscription(props.email));
    this.metrics = pipelineMetrics({ ...props, fallbackMinDecisions: props.fallbackMinDecisions });
    const action = new SnsAction(this.topic);
    const minutes = (count: number) => Duration.minutes(count);

    const definitions: Record<string, AlarmDefinition> = {
      ...this.laneAlarms(props),
      UndeliveredOutcomes: {
        metric: props.undeliveredOutcomes.metricApproximateNumberOfMessagesVisible({
          statistic: Stats.MAXIMUM,
          period: minutes(1),
        }),
        threshold: 1,
        periods: 1,
        description:
          "The outcomes Pipe could not deliver stream records to the outcomes bus: they wait in its queue (14 days); fix the bus or its rules, then replay them.",
      },
      UnwrittenJobResults: {
        metric: props.unwrittenJobResults.metricApproximateNumberOfMessagesVisible({
          statistic: Stats.MAXIMUM,
          period: minutes(1),
        }),
        threshold: 1,
        periods: 1,
        description:
          'The results writer gave up on a job after 10 deliveries (S3 or the jobs table kept failing; its log says why): the job stays deciding with ended_at set and no results (decisions jobs list shows it). Fix the cause, then invoke the results writer with {"Records":[{"dynamodb":{"Keys":{"job_id":{"S":"<job id>"}}}}]}.',
      },
      UndeliveredJobEvents: {
        metric: props.undeliveredJobEvents.metricApproximateNumberOfMessagesVisible({
          statistic: Stats.MAXIMUM,
          period: minutes(1),
        }),
        threshold: 1,
        periods: 1,
        description:
          "The job events Pipe could not publish a job's Decision Job Completed event (the bus, its rules or the enrichment function failed): the records wait in its queue (14 days); the jobs themselves are complete (decisions jobs show).",
      },
      DecideConfigurationErrors: {
        metric: new Metric({
          namespace: props.metricsNamespace,
          metricName: DECIDE_METRICS.configurationErrors,
          dimensionsMap: { [DECISION_METRICS.serviceDimension]: DECISION_METRICS.decideService },
          statistic: Stats.SUM,
          period: minutes(5),
        }),
        threshold: 1,
        periods: 1,
        description:
          "The decide function cannot work as configured (the endpoint not found or not allowed, the outcomes table missing or not writable, a policy not deployed): records go back to the queue undecided. Its error log names the message, the resource and what to fix; `decisions dlq list` shows the reasons.",
      },
      IngestErrors: {
        metric: props.ingestFunction.metricErrors({ period: minutes(5) }),
        threshold: 1,
        periods: 1,
        description: "The ingest function failed on a batch file.",
      },
      IngestThrottles: {
        metric: props.ingestFunction.metricThrottles({ period: minutes(5) }),
        threshold: 1,
        periods: 1,
        description: "The ingest function was throttled.",
      },
      IngestUnsentLines: {
        metric: new Metric({
          namespace: props.metricsNamespace,
          metricName: INGEST_METRICS.unsentLines,
          dimensionsMap: { [DECISION_METRICS.serviceDimension]: DECISION_METRICS.ingestService },
          statistic: Stats.SUM,
          period: minutes(5),
        }),
        threshold: 1,
        periods: 1,
        description:
          "The ingest function could not send or record some lines (SQS or DynamoDB kept failing): they are read again from its checkpoint; see its log for the cause.",
      },
      StalledJobs: {
        metric: this.metrics.stalledJobs,
        threshold: 1,
        periods: 1,
        description: `A batch job has made no progress for ${props.jobStallMinutes} minutes (no line ended, no status change; knob jobStallMinutes): a line lost without being counted, or results that were not written. The jobs monitor's log names the jobs; decisions jobs show <id> gives their counts.`,
      },
      JobsMonitorErrors: {
        metric: props.jobsMonitorFunction.metricErrors({ period: minutes(5) }),
        threshold: 1,
        periods: 1,
        description: "The jobs monitor failed a check: stalled jobs are not being looked for.",
      },
      IngestWorkflowFailures: {
        metric: props.ingestWorkflow.metricFailed({ period: minutes(5) }),
        threshold: 1,
        periods: 1,
        description:
          "An ingest workflow failed, timed out or was aborted: that batch file was not read to its end.",
      },
    };
    for (const [policy, rate] of Object.entries(this.metrics.fallbackRateByPolicy)) {
      definitions[`FallbackRate-${policy}`] = {
        metric: rate,
        threshold: props.fallbackRatePercent,
        periods: 1,
        description: `More than ${props.fallbackRatePercent}% of the ${policy} decisions in 15 minutes were fallbacks (the model's answers were below the thresholds), with at least ${props.fallbackMinDecisions} decisions.`,
        above: true,
      };
    }
    this.alarms = {};
    for (const [name, definition] of Object.entries(definitions)) {
      const alarm = new Alarm(this, name, {
        metric: definition.metric,
        threshold: definition.threshold,
        evaluationPeriods: definition.periods,
        comparisonOperator:
          definition.above === true
            ? ComparisonOperator.GREATER_THAN_THRESHOLD
            : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: definition.description,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms[name] = alarm;
    }
    for (const alarm of props.endpointAlarms) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms[alarm.node.id] = alarm;
    }
  }

  /**
   * Each lane's own alarms, named `<alarm>-<lane>`: dead letters, the oldest work item, the decide
   * function's errors and throttles; and the interactive lane's p95 send → outcome time.
   */
  private laneAlarms(props: PipelineAlarmsProps): Record<string, AlarmDefinition> {
    const minutes = (count: number) => Duration.minutes(count);
    const alarms: Record<string, AlarmDefinition> = {};
    for (const { lane, queue, deadLetterQueue, decideFunction } of props.lanes) {
      const age = props.oldestMessageAge[lane];
      alarms[`DeadLetters-${lane}`] = {
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          statistic: Stats.MAXIMUM,
          period: minutes(1),
        }),
        threshold: 1,
        periods: 1,
        description: `Work items are in the ${lane} lane's dead-letter queue: inspect them, fix the cause, redrive (they go back to the ${lane} queue).`,
      };
      alarms[`OldestWorkItem-${lane}`] = {
        metric: queue.metricApproximateAgeOfOldestMessage({ statistic: Stats.MAXIMUM, period: minutes(1) }),
        threshold: age.toSeconds(),
        periods: 5,
        description: `A work item of the ${lane} lane has waited longer than ${age.toSeconds()} s: the lane is behind or stuck.`,
      };
      alarms[`DecideErrors-${lane}`] = {
        metric: decideFunction.metricErrors({ period: minutes(5) }),
        threshold: 1,
        periods: 1,
        description: `The ${lane} lane's decide function failed an invocation (its whole batch is retried).`,
      };
      alarms[`DecideThrottles-${lane}`] = {
        metric: decideFunction.metricThrottles({ period: minutes(5) }),
        threshold: 1,
        periods: 1,
        description: `The ${lane} lane's decide function was throttled: raise the account's concurrency or lower maxInstances.`,
      };
    }
    alarms["SendToOutcome-interactive"] = {
      metric: this.metrics.sendToOutcome("interactive", Stats.p(95)),
      threshold: props.interactiveLatency.toMilliseconds(),
      periods: 2,
      above: true,
      description: `The p95 of the interactive lane's send → outcome time (SendToOutcome, lane interactive) was above ${props.interactiveLatency.toSeconds()} s in two consecutive 5-minute periods: interactive items wait (endpoint at capacity, bulk work not yielding, too few instances).`,
    };
    return alarms;
  }
}
