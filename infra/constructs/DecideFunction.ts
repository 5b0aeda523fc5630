import { type Duration, Validations } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { DECIDE_SETTINGS, type Lane, variableOf } from "../../contract/index.js";
import { DECISION_METRICS } from "../constants.js";
import { bucketLogicalId } from "./bucketLogicalId.js";
import { grantJobCounting } from "./grantJobCounting.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** Props of {@link DecideFunction}. */
export interface DecideFunctionProps {
  /** `functions/decide/handler.ts`. */
  entry: string;
  projectRoot: string;
  /** The lane it drains (`LANE`): every endpoint call names it in `CustomAttributes`. */
  lane: Lane;
  /** Its lane's work queue: it consumes it, and re-queues busy records to it (and to no other queue). */
  queue: IQueue;
  /** The outcomes table it writes. */
  table: ITable;
  /** ARN of the table's `by-status` index. */
  statusIndexArn: string;
  /** The one endpoint it invokes. */
  endpointName: string;
  endpointArn: string;
  /**
   * Its lane's inference component on that endpoint (`layout=lanes-from-zero`): its name as
   * `INFERENCE_COMPONENT_NAME`, and leave to invoke it. Default none (the endpoint's variant serves).
   */
  component?: { name: string; arn: string };
  /**
   * The shadow step's candidate endpoint (`ShadowEndpoint`): its name as `SHADOW_ENDPOINT_NAME`,
   * and leave to invoke it. Default none (neither).
   */
  candidate?: { endpointName: string; endpointArn: string };
  timeout: Duration;
  memorySize: number;
  batchSize: number;
  batchingWindow: Duration;
  /** The event source's maximum concurrency (its lane's share, `deriveDecideCapacity`). */
  maxConcurrency: number;
  /** `MAX_CONCURRENT_GROUPS`: InvokeEndpoint calls in flight per invocation. */
  maxConcurrentGroups: number;
  metricsNamespace: string;
  logRetention: RetentionDays;
  /** Where it keeps the whole state of items sent to review (it may only put objects under the prefix). */
  reviewStates?: { bucket: IBucket; prefix: string };
  /**
   * The jobs table, where an outcome of a job's line is counted (`JOBS_TABLE`), and the work
   * queue's `maxReceiveCount` (`MAX_RECEIVE_COUNT`: a line failing its last receive is counted as
   * dead-lettered). Default: no jobs are counted.
   */
  jobs?: { table: ITable; maxReceiveCount: number };
}

/** How long the deployed function gives back an item whose policy it has not loaded (a rollout under way). */
export const UNKNOWN_POLICY_WAIT_SECONDS = 900;

/**
 * The decide function (`functions/decide/handler.ts`) of one lane, on that lane's work queue: `LANE`
 * set (its endpoint calls say `lane=<lane>` in `CustomAttributes`, and the adapter serves
 * interactive calls first), an SQS event source with ReportBatchItemFailures (only the records
 * that failed for a transient reason come back), the batch size and window, and a maximum
 * concurrency derived from the lane's share of the endpoint's capacity. It may send only to its
 * own queue (busy records re-queued as delayed copies),
 * invoke that one endpoint, put and get items of the outcomes table, and query its review index;
 * with `jobs`, count the lines of jobs in the jobs table (see `grantJobCounting`).
 */
export class DecideFunction extends Construct {
  readonly function: IFunction;
  readonly eventSource: SqsEventSource;

  constructor(scope: Construct, id: string, props: DecideFunctionProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: props.timeout,
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      description: `Decides work items of the ${props.lane} lane: groups by policy and state, invokes the decision endpoint, records outcomes`,
      environment: {
        [variableOf(DECIDE_SETTINGS.lane)]: props.lane,
        [variableOf(DECIDE_SETTINGS.outcomesTable)]: props.table.tableName,
        [variableOf(DECIDE_SETTINGS.endpointName)]: props.endpointName,
        ...(props.component === undefined
          ? {}
          : { [variableOf(DECIDE_SETTINGS.inferenceComponentName)]: props.component.name }),
        [variableOf(DECIDE_SETTINGS.maxConcurrentGroups)]: String(props.maxConcurrentGroups),
        // A rollout (new policy files with new code) takes minutes; items of a policy that an
        // instance has not loaded yet wait this long in the queue before they are rejected.
        [variableOf(DECIDE_SETTINGS.unknownPolicyWaitSeconds)]: String(UNKNOWN_POLICY_WAIT_SECONDS),
        ...(props.reviewStates === undefined
          ? {}
          : {
              [variableOf(DECIDE_SETTINGS.stateArchiveBucket)]: props.reviewStates.bucket.bucketName,
              [variableOf(DECIDE_SETTINGS.stateArchivePrefix)]: props.reviewStates.prefix,
            }),
        ...(props.jobs === undefined
          ? {}
          : {
              [variableOf(DECIDE_SETTINGS.jobsTable)]: props.jobs.table.tableName,
              [variableOf(DECIDE_SETTINGS.maxReceiveCount)]: String(props.jobs.maxReceiveCount),
            }),
        ...(props.candidate === undefined
          ? {}
          : { [variableOf(DECIDE_SETTINGS.shadowEndpointName)]: props.candidate.endpointName }),
        POWERTOOLS_SERVICE_NAME: DECISION_METRICS.decideService,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
    });
    this.function = fn.function;

    // A call that names an inference component is authorized on the endpoint (required) and on
    // the component (`arn:…:inference-component/<name>`): the Service Authorization Reference's
    // InvokeEndpoint row (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html).
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ["sagemaker:InvokeEndpoint"],
        resources: [
          props.endpointArn,
          ...(props.component ? [props.component.arn] : []),
          ...(props.candidate ? [props.candidate.endpointArn] : []),
        ],
      }),
    );
    fn.role.addToPolicy(
      new PolicyStatement({
        // UpdateItem: the failure record of a record given back (core/failures).
        actions: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem"],
        resources: [props.table.tableArn],
      }),
    );
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["dynamodb:Query"], resources: [props.statusIndexArn] }),
    );
    // Records that failed only because the endpoint is at capacity are re-queued to this queue as
    // delayed copies (core/flow), so their receive count stays for real failures.
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ["sqs:SendMessage", "sqs:GetQueueUrl"],
        resources: [props.queue.queueArn],
      }),
    );

    if (props.jobs !== undefined) grantJobCounting(fn.role, props.jobs.table);

    if (props.reviewStates !== undefined) {
      fn.role.addToPolicy(
        new PolicyStatement({
          actions: ["s3:PutObject"],
          resources: [props.reviewStates.bucket.arnForObjects(`${props.reviewStates.prefix}*`)],
        }),
      );
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId(props.reviewStates.bucket)}.Arn>/${props.reviewStates.prefix}*]`,
        reason:
          "Review states are named by their sha256 under one prefix; the role may only put objects there.",
      });
    }

    this.eventSource = new SqsEventSource(props.queue, {
      batchSize: props.batchSize,
      maxBatchingWindow: props.batchingWindow,
      reportBatchItemFailures: true,
      maxConcurrency: props.maxConcurrency,
    });
    this.function.addEventSource(this.eventSource);
  }
}
