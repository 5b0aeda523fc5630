import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
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
    // The alarms are made in this order (it is the template's order).
    const definitions: Record<string, AlarmDefinition> = {
      ...laneAlarms(props, this.metrics),
      ...undeliveredRecordAlarms(props),
      ...functionAlarms(props),
      ...batchJobAlarms(props, this.metrics),
      ...fallbackRateAlarms(props, this.metrics),
    };
    this.alarms = {};
    for (const [name, definition] of Object.entries(definitions)) {
      this.alarms[name] = this.addAlarm(name, definition, action);
    }
    for (const alarm of props.endpointAlarms) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms[alarm.node.id] = alarm;
    }
  }

  /** One alarm of a definition, notifying the topic when it fires and when it clears. */
  private addAlarm(name: string, definition: AlarmDefinition, action: SnsAction): Alarm {
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
    return alarm;
  }
}

const minutes = (count: number) => Duration.minutes(count);

/**
 * Each lane's own alarms, named `<alarm>-<lane>`: dead letters, the oldest work item, the decide
 * function's errors and throttles; and the interactive lane's p95 send → outcome time.
 */
function laneAlarms(props: PipelineAlarmsProps, metrics: PipelineMetrics): Record<string, AlarmDefinition> {
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
    metric: metrics.sendToOutcome("interactive", Stats.p(95)),
    threshold: props.interactiveLatency.toMilliseconds(),
    periods: 2,
    above: true,
    description: `The p95 of the interactive lane's send → outcome time (SendToOutcome, lane interactive) was above ${props.interactiveLatency.toSeconds()} s in two consecutive 5-minute periods: interactive items wait (endpoint at capacity, bulk work not yielding, too few instances).`,
  };
  return alarms;
}

/** A queue of stream records holds one: so every queue of the stack has an alarm. */
function holdsMessages(queue: IQueue, description: string): AlarmDefinition {
  return {
    metric: queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period: minutes(1) }),
    threshold: 1,
    periods: 1,
    description,
  };
}

/** Stream records the outcomes Pipe, the results writer or the job events Pipe gave up on. */
function undeliveredRecordAlarms(props: PipelineAlarmsProps): Record<string, AlarmDefinition> {
  return {
    UndeliveredOutcomes: holdsMessages(
      props.undeliveredOutcomes,
      "The outcomes Pipe could not deliver stream records to the outcomes bus: they wait in its queue (14 days); fix the bus or its rules, then replay them.",
    ),
    UnwrittenJobResults: holdsMessages(
      props.unwrittenJobResults,
      'The results writer gave up on a job after 10 deliveries (S3 or the jobs table kept failing; its log says why): the job stays deciding with ended_at set and no results (decisions jobs list shows it). Fix the cause, then invoke the results writer with {"Records":[{"dynamodb":{"Keys":{"job_id":{"S":"<job id>"}}}}]}.',
    ),
    UndeliveredJobEvents: holdsMessages(
      props.undeliveredJobEvents,
      "The job events Pipe could not publish a job's Decision Job Completed event (the bus, its rules or the enrichment function failed): the records wait in its queue (14 days); the jobs themselves are complete (decisions jobs show).",
    ),
  };
}

/** The decide function's configuration errors; the ingest function's errors, throttles and unsent lines. */
function functionAlarms(props: PipelineAlarmsProps): Record<string, AlarmDefinition> {
  const serviceSum = (service: string, metricName: string) =>
    new Metric({
      namespace: props.metricsNamespace,
      metricName,
      dimensionsMap: { [DECISION_METRICS.serviceDimension]: service },
      statistic: Stats.SUM,
      period: minutes(5),
    });
  return {
    DecideConfigurationErrors: {
      metric: serviceSum(DECISION_METRICS.decideService, DECIDE_METRICS.configurationErrors),
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
      metric: serviceSum(DECISION_METRICS.ingestService, INGEST_METRICS.unsentLines),
      threshold: 1,
      periods: 1,
      description:
        "The ingest function could not send or record some lines (SQS or DynamoDB kept failing): they are read again from its checkpoint; see its log for the cause.",
    },
  };
}

/** Batch jobs: a stalled job, a jobs monitor that fails, an ingest workflow that fails. */
function batchJobAlarms(
  props: PipelineAlarmsProps,
  metrics: PipelineMetrics,
): Record<string, AlarmDefinition> {
  return {
    StalledJobs: {
      metric: metrics.stalledJobs,
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
      // A run stopped by the state machine's timeout or aborted ends as neither failed nor
      // succeeded: all three ways an execution ends short are counted.
      metric: new MathExpression({
        expression: "FILL(failed, 0) + FILL(timedOut, 0) + FILL(aborted, 0)",
        usingMetrics: {
          failed: props.ingestWorkflow.metricFailed({ period: minutes(5) }),
          timedOut: props.ingestWorkflow.metricTimedOut({ period: minutes(5) }),
          aborted: props.ingestWorkflow.metricAborted({ period: minutes(5) }),
        },
        label: "Executions failed, timed out or aborted",
        period: minutes(5),
      }),
      threshold: 1,
      periods: 1,
      description:
        "An ingest workflow failed, timed out or was aborted: that batch file was not read to its end.",
    },
  };
}

/** One alarm per policy, named `FallbackRate-<policy>`: too many of its decisions were fallbacks. */
function fallbackRateAlarms(
  props: PipelineAlarmsProps,
  metrics: PipelineMetrics,
): Record<string, AlarmDefinition> {
  const alarms: Record<string, AlarmDefinition> = {};
  for (const [policy, rate] of Object.entries(metrics.fallbackRateByPolicy)) {
    alarms[`FallbackRate-${policy}`] = {
      metric: rate,
      threshold: props.fallbackRatePercent,
      periods: 1,
      description: `More than ${props.fallbackRatePercent}% of the ${policy} decisions in 15 minutes were fallbacks (the model's answers were below the thresholds), with at least ${props.fallbackMinDecisions} decisions.`,
      above: true,
    };
  }
  return alarms;
}
