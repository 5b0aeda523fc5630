import { Duration, Validations } from "aws-cdk-lib";
import type { Table } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { type IFunction, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import {
  JOB_RECORD_LINE,
  JOB_RESULTS_PREFIX,
  RESULTS_WRITER_SETTINGS,
  variableOf,
} from "../../contract/index.js";
import { DECISION_METRICS } from "../constants.js";
import { bucketLogicalId } from "./bucketLogicalId.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link JobResultsFunction}. */
export interface JobResultsFunctionProps {
  /** `functions/results/handler.ts`. */
  entry: string;
  projectRoot: string;
  /** The jobs table, whose stream starts the writer. */
  jobsTable: Table;
  /** The ingest bucket: the writer puts a job's results under {@link JOB_RESULTS_PREFIX} there. */
  bucket: IBucket;
  memorySize: number;
  metricsNamespace: string;
  logRetention: RetentionDays;
}

/**
 * The stream records that start the writer: the change of a job record (`line` 0) that set its
 * `ended_at` (the conditional update that found every line ended; `JobLedger.checkEnded`), once
 * per job. Count updates, line items and the final status do not invoke it.
 */
export const ENDED_JOB_PATTERN = {
  eventName: ["MODIFY"],
  dynamodb: {
    Keys: { line: { N: [String(JOB_RECORD_LINE)] } },
    NewImage: { ended_at: { S: [{ exists: true }] } },
    OldImage: { ended_at: { S: [{ exists: false }] } },
  },
};

/** Timeout of one results write: a job of a million lines is 2,000 Queries of 500 items and ~300 MB of parts. */
export const RESULTS_WRITER_TIMEOUT = Duration.minutes(15);

/** Deliveries of a stream record before it goes to the {@link JobResultsFunction.unwritten} queue. */
export const RESULTS_WRITER_RETRY_ATTEMPTS = 10;

/**
 * The results writer (`functions/results/handler.ts`): a job's JSONL results, its manifest and its
 * final status, written once the job's last line has ended. The jobs table's stream invokes it,
 * filtered to {@link ENDED_JOB_PATTERN} (no polling); it reports batch item failures, splits a
 * failing batch, and after {@link RESULTS_WRITER_RETRY_ATTEMPTS} deliveries keeps the record in
 * {@link unwritten} (the job then stays `deciding` with `ended_at` set: the stalled-jobs alarm
 * sees it). It starts from the oldest record the stream keeps, so a replaced mapping misses no
 * job (a job already final is left as it is).
 *
 * It may get, query and update the jobs table (the job record, its line items, the final status)
 * and put objects under `results/` of the ingest bucket (the multipart upload of a large results
 * object included), nothing else.
 */
export class JobResultsFunction extends Construct {
  readonly function: IFunction;
  /** Stream records of jobs whose results could not be written (their details only, 14 days). */
  readonly unwritten: Queue;

  constructor(scope: Construct, id: string, props: JobResultsFunctionProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: RESULTS_WRITER_TIMEOUT,
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      description: "Writes a batch job's results, manifest and final status once its last line has ended",
      environment: {
        [variableOf(RESULTS_WRITER_SETTINGS.jobsTable)]: props.jobsTable.tableName,
        POWERTOOLS_SERVICE_NAME: DECISION_METRICS.resultsService,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
    });
    this.function = fn.function;

    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"],
        resources: [props.jobsTable.tableArn],
      }),
    );
    const results = props.bucket.arnForObjects(`${JOB_RESULTS_PREFIX}*`);
    fn.role.addToPolicy(
      new PolicyStatement({
        // PutObject also covers CreateMultipartUpload, UploadPart and CompleteMultipartUpload.
        actions: ["s3:PutObject", "s3:AbortMultipartUpload"],
        resources: [results],
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId(props.bucket)}.Arn>/${JOB_RESULTS_PREFIX}*]`,
      reason: "A job's results are named by its id under one prefix; the role may only put objects there.",
    });

    this.unwritten = new Queue(this, "Unwritten", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.unwritten).acknowledge({
      id: "AwsSolutions-SQS3",
      reason: "This queue is the on-failure destination of the results writer's stream event source.",
    });
    this.function.addEventSource(
      new DynamoEventSource(props.jobsTable, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 10,
        bisectBatchOnError: true,
        retryAttempts: RESULTS_WRITER_RETRY_ATTEMPTS,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.unwritten),
        filters: [{ pattern: JSON.stringify(ENDED_JOB_PATTERN) }],
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "dynamodb:ListStreams (granted with the stream's read) has no resource-level permissions.",
    });
  }
}
