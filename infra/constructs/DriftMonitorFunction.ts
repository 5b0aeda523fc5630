import { join } from "node:path";
import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, Metric, Stats, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import { DRIFT_MONITOR_SETTINGS, variableOf } from "../../contract/index.js";
import { DRIFT_METRICS } from "../../contract/metrics/driftMetrics.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link DriftMonitorFunction}. */
export interface DriftMonitorFunctionProps {
  /** `functions/driftMonitor/handler.ts`. */
  entry: string;
  projectRoot: string;
  outcomesTable: ITable;
  /** ARN of the outcomes table's `by-status` index (the only thing the monitor reads). */
  statusIndexArn: string;
  /** The policies checked: one `Drift-<policy>` alarm each. */
  policies: readonly string[];
  /** `DRIFT_THRESHOLD` and the alarms' threshold (the knob `driftAlarmThreshold`), bits. */
  threshold: number;
  metricsNamespace: string;
  /** The pipeline's alarm topic: the drift alarms notify it when they fire and when they clear. */
  alarmTopic: ITopic;
  logRetention: RetentionDays;
}

/** What {@link DriftMonitorFunction.addTo} needs of the stack: the outcomes table, the policies, the alarm topic. */
export interface DriftMonitorHost extends Construct {
  readonly outcomes: { readonly table: ITable; readonly statusIndexArn: string };
  readonly policies: readonly { readonly name: string }[];
  readonly alarms: { readonly topic: ITopic };
}

/** How often the drift monitor checks: its window (`DRIFT_WINDOW_MINUTES`' default), so each check sees a new hour. */
export const DRIFT_MONITOR_INTERVAL = Duration.minutes(DRIFT_MONITOR_SETTINGS.windowMinutes.default.value);

/**
 * The drift monitor (`functions/driftMonitor/handler.ts`), run by an EventBridge schedule every
 * {@link DRIFT_MONITOR_INTERVAL}: per policy and question it compares the last hour's answers with
 * the 24 hours before and publishes `AnswerDrift` (per question) and `PolicyDrift` (the largest, per
 * policy). One alarm per policy fires when `PolicyDrift` is above the threshold at a check; a check
 * with too few answers publishes nothing, which the alarm reads as not breaching; a check that
 * fails raises the monitor's own errors alarm ({@link DriftMonitorFunction.errorsAlarm}). The function may
 * query the outcomes table's `by-status` index and nothing else. A check that fails is not retried:
 * the next one comes an hour later.
 */
export class DriftMonitorFunction extends Construct {
  readonly function: IFunction;
  readonly schedule: Rule;
  /** Policy name → its drift alarm. */
  readonly alarms: Readonly<Record<string, Alarm>>;
  /**
   * The monitor failed a check. A `Drift-<policy>` alarm reads a check that published nothing as
   * not breaching (a quiet hour publishes nothing), so without this one a monitor that throws every
   * hour would look like "no drift".
   */
  readonly errorsAlarm: Alarm;

  /**
   * Adds the drift monitor to a stack that has the outcomes table, the policies and the alarm topic
   * (`DecisionsStack`), with the handler under `projectRoot` and the threshold from the settings.
   */
  static addTo(
    host: DriftMonitorHost,
    inputs: {
      settings: { driftAlarmThreshold: number; metricsNamespace: string };
      projectRoot: string;
      logRetention: RetentionDays;
    },
  ): DriftMonitorFunction {
    return new DriftMonitorFunction(host, "DriftMonitor", {
      entry: join(inputs.projectRoot, "functions", "driftMonitor", "handler.ts"),
      projectRoot: inputs.projectRoot,
      outcomesTable: host.outcomes.table,
      statusIndexArn: host.outcomes.statusIndexArn,
      policies: host.policies.map((policy) => policy.name),
      threshold: inputs.settings.driftAlarmThreshold,
      metricsNamespace: inputs.settings.metricsNamespace,
      alarmTopic: host.alarms.topic,
      logRetention: inputs.logRetention,
    });
  }

  constructor(scope: Construct, id: string, props: DriftMonitorFunctionProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: Duration.minutes(5),
      memorySize: 512,
      logRetention: props.logRetention,
      description:
        "Compares each policy's last hour of answers with the day before: the drift distance per question",
      environment: {
        [variableOf(DRIFT_MONITOR_SETTINGS.outcomesTable)]: props.outcomesTable.tableName,
        [variableOf(DRIFT_MONITOR_SETTINGS.policies)]: props.policies.join(","),
        [variableOf(DRIFT_MONITOR_SETTINGS.threshold)]: String(props.threshold),
        POWERTOOLS_SERVICE_NAME: DRIFT_METRICS.service,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
    });
    this.function = fn.function;
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["dynamodb:Query"], resources: [props.statusIndexArn] }),
    );
    this.schedule = new Rule(this, "Schedule", {
      description: "Runs the drift monitor",
      schedule: Schedule.rate(DRIFT_MONITOR_INTERVAL),
      targets: [new LambdaFunction(fn.function, { retryAttempts: 0 })],
    });
    const action = new SnsAction(props.alarmTopic);
    const alarms: Record<string, Alarm> = {};
    for (const policy of props.policies) {
      const alarm = new Alarm(this, `Drift-${policy}`, {
        metric: new Metric({
          namespace: props.metricsNamespace,
          metricName: DRIFT_METRICS.policyDistance,
          dimensionsMap: { service: DRIFT_METRICS.service, [DRIFT_METRICS.policyDimension]: policy },
          statistic: Stats.MAXIMUM,
          period: DRIFT_MONITOR_INTERVAL,
        }),
        threshold: props.threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `The ${policy} answers of the last hour moved away from the 24 hours before: a question's drift distance is above ${props.threshold} bits (knob driftAlarmThreshold). decisions drift --policy ${policy} shows which options moved; docs/drift.md says what to do.`,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      alarms[policy] = alarm;
    }
    this.alarms = alarms;
    this.errorsAlarm = new Alarm(this, "Errors", {
      metric: fn.function.metricErrors({ period: DRIFT_MONITOR_INTERVAL, statistic: Stats.SUM }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription:
        "The drift monitor failed a check: no drift is being measured for any policy, and the Drift-<policy> alarms stay OK whatever the answers do. Its log says why; the next check comes an hour later.",
    });
    this.errorsAlarm.addAlarmAction(action);
    this.errorsAlarm.addOkAction(action);
  }
}
