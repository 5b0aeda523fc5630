import { Duration } from "aws-cdk-lib";
import type { Table } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { JOBS_MONITOR_SETTINGS, variableOf } from "../../contract/index.js";
import { DECISION_METRICS } from "../constants.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link JobsMonitorFunction}. */
export interface JobsMonitorFunctionProps {
  /** `functions/jobsMonitor/handler.ts`. */
  entry: string;
  projectRoot: string;
  jobsTable: Table;
  /** ARN of the jobs table's `by-created` index. */
  listIndexArn: string;
  /** `JOB_STALL_MINUTES` (the knob `jobStallMinutes`). */
  stallMinutes: number;
  metricsNamespace: string;
  logRetention: RetentionDays;
}

/** How often the jobs monitor checks (the period of its metrics and of the stalled-jobs alarm). */
export const JOBS_MONITOR_INTERVAL = Duration.minutes(5);

/**
 * The jobs monitor (`functions/jobsMonitor/handler.ts`), run by an EventBridge schedule every
 * {@link JOBS_MONITOR_INTERVAL}: it lists the jobs of the last days that are not final through the
 * `by-created` index, reads each record, and emits `JobsInProgress`, `JobLinesPending` and
 * `JobsStalled` (not final, unchanged for `stallMinutes`). A check that fails is not retried: the
 * next one comes in 5 minutes. It may query that index and get items of the jobs table, nothing else.
 */
export class JobsMonitorFunction extends Construct {
  readonly function: IFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: JobsMonitorFunctionProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: Duration.minutes(1),
      memorySize: 256,
      logRetention: props.logRetention,
      description: "Checks the batch jobs in progress every 5 minutes: jobs, lines pending, stalled jobs",
      environment: {
        [variableOf(JOBS_MONITOR_SETTINGS.jobsTable)]: props.jobsTable.tableName,
        [variableOf(JOBS_MONITOR_SETTINGS.stallMinutes)]: String(props.stallMinutes),
        POWERTOOLS_SERVICE_NAME: DECISION_METRICS.jobsMonitorService,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
    });
    this.function = fn.function;
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["dynamodb:Query"], resources: [props.listIndexArn] }),
    );
    fn.role.addToPolicy(
      // A job is its record and its counters (line ≤ 0), read by one Query of the table; a job whose
      // lines have all ended gets `ended_at` by a conditional UpdateItem of its record.
      new PolicyStatement({
        actions: ["dynamodb:Query", "dynamodb:UpdateItem"],
        resources: [props.jobsTable.tableArn],
      }),
    );
    this.schedule = new Rule(this, "Schedule", {
      description: "Runs the jobs monitor",
      schedule: Schedule.rate(JOBS_MONITOR_INTERVAL),
      targets: [new LambdaFunction(fn.function, { retryAttempts: 0 })],
    });
  }
}
