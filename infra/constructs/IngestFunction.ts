import { Duration, Validations } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { INGEST_SETTINGS, variableOf } from "../../contract/index.js";
import { DECISION_METRICS } from "../constants.js";
import { bucketLogicalId } from "./bucketLogicalId.js";
import { grantJobCounting } from "./grantJobCounting.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link IngestFunction}. */
export interface IngestFunctionProps {
  /** `functions/ingest/handler.ts`. */
  entry: string;
  projectRoot: string;
  /** The bucket whose new objects are ingested. */
  bucket: IBucket;
  /** It may read keys with this prefix only (empty: all). */
  prefix: string;
  /** Where the work items go (the stack gives the bulk lane's queue: every batch-job line travels in `JOB_LANE`). */
  queue: IQueue;
  /** Where a line that is not a valid work item is recorded as `rejected`. */
  table: ITable;
  maxLinesPerInvocation: number;
  /** The jobs table: each object version read is a job there (`JOBS_TABLE`). Default: no jobs. */
  jobsTable?: ITable;
  memorySize: number;
  metricsNamespace: string;
  logRetention: RetentionDays;
}

/** Timeout of one ingest invocation; it checkpoints after `maxLinesPerInvocation` lines. */
export const INGEST_TIMEOUT = Duration.minutes(5);

/**
 * The ingest function (`functions/ingest/handler.ts`, batch classification): given one checkpoint
 * `{bucket, key, versionId?, line, byteOffset}` it streams that JSONL object from there, sends its
 * lines to the bulk lane's work queue and returns `{objects, pending}` (see `IngestWorkflow`, which invokes it).
 * It may read objects under the prefix only, send to that queue only, and put and get items of the
 * outcomes table; with `jobsTable`, keep the object's job there (see `grantJobCounting`).
 */
export class IngestFunction extends Construct {
  readonly function: IFunction;

  constructor(scope: Construct, id: string, props: IngestFunctionProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: INGEST_TIMEOUT,
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      description: "Ingests JSONL batch files: one work item per line onto the bulk lane's work queue",
      environment: {
        [variableOf(INGEST_SETTINGS.workQueueUrl)]: props.queue.queueUrl,
        [variableOf(INGEST_SETTINGS.outcomesTable)]: props.table.tableName,
        [variableOf(INGEST_SETTINGS.maxLinesPerInvocation)]: String(props.maxLinesPerInvocation),
        ...(props.jobsTable === undefined
          ? {}
          : { [variableOf(INGEST_SETTINGS.jobsTable)]: props.jobsTable.tableName }),
        POWERTOOLS_SERVICE_NAME: DECISION_METRICS.ingestService,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
    });
    this.function = fn.function;

    const objects = props.bucket.arnForObjects(`${props.prefix}*`);
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["s3:GetObject", "s3:GetObjectVersion"], resources: [objects] }),
    );
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId(props.bucket)}.Arn>/${props.prefix}*]`,
      reason: "Batch files are any objects under the ingest prefix; the role reads nothing else.",
    });
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["sqs:SendMessage"], resources: [props.queue.queueArn] }),
    );
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ["dynamodb:PutItem", "dynamodb:GetItem"],
        resources: [props.table.tableArn],
      }),
    );
    if (props.jobsTable !== undefined) grantJobCounting(fn.role, props.jobsTable);
  }
}
