import { type CfnElement, Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import { Match, Rule } from "aws-cdk-lib/aws-events";
import { SfnStateMachine } from "aws-cdk-lib/aws-events-targets";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import {
  Choice,
  Condition,
  DefinitionBody,
  LogLevel,
  StateMachine,
  Succeed,
  Timeout,
} from "aws-cdk-lib/aws-stepfunctions";
import { LambdaInvoke } from "aws-cdk-lib/aws-stepfunctions-tasks";
import { Construct } from "constructs";
import { INGEST_TIMEOUT } from "./IngestFunction.js";

/** Props of {@link IngestWorkflow}. */
export interface IngestWorkflowProps {
  /** The bucket (EventBridge notifications are turned on for it). */
  bucket: IBucket;
  /** Only keys with this prefix (empty: all). */
  prefix: string;
  /** Only keys with this suffix (empty: all). */
  suffix: string;
  /** The ingest function: takes one checkpoint, returns `{objects, pending}`. */
  ingest: IFunction;
  logRetention: RetentionDays;
}

/** The longest one batch file may take to ingest, all continuations together. */
export const INGEST_WORKFLOW_TIMEOUT = Duration.hours(12);

/**
 * The longest one ingest invocation may take as the state machine waits for it: the function's
 * own timeout and a minute for Lambda's start. Stated on the task because Step Functions' default
 * (99999999 s) and the States Language's (60 s, what ASL interpreters apply) differ.
 */
export const INGEST_TASK_TIMEOUT = INGEST_TIMEOUT.plus(Duration.minutes(1));

/**
 * Batch classification from S3: every new object under the prefix (an S3 "Object Created" event on
 * EventBridge) starts a Step Functions loop that invokes the ingest function with the event (the
 * function reads the object from its first line), then with the result's `{pending}` while it
 * holds a checkpoint, so files of any length are read in bounded invocations and no continuation
 * is lost. Failed, timed-out and aborted executions are visible (and alarmed on); logs and X-Ray
 * traces are kept.
 *
 * The definition is in JSONPath, Step Functions' default query language: the local stack runs this
 * same definition, read from the synthesized template, with an ASL interpreter
 * (aws-local-stepfunctions) that knows JSONPath only (`local/ingest/runIngestWorkflow.ts`).
 */
export class IngestWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: IngestWorkflowProps) {
    super(scope, id);
    // The event itself is the first input (the function takes an "Object Created" event, and reads
    // an absent `version-id` as none, where a JSONPath selecting it would fail the state); each
    // later input is the previous result's `{pending}`, which the function takes as a continuation.
    const invoke = new LambdaInvoke(this, "IngestFrom", {
      comment: "Reads from the event's object, or from each pending checkpoint, within one invocation",
      lambdaFunction: props.ingest,
      // Only the checkpoints go on: the per-object counts are in the function's log and metrics.
      resultSelector: { "pending.$": "$.Payload.pending" },
      taskTimeout: Timeout.duration(INGEST_TASK_TIMEOUT),
    });
    const more = new Choice(this, "MoreToRead")
      .when(Condition.isPresent("$.pending[0]"), invoke)
      .otherwise(new Succeed(this, "Done"));
    const logs = new LogGroup(this, "Logs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new StateMachine(this, "StateMachine", {
      definitionBody: DefinitionBody.fromChainable(invoke.next(more)),
      timeout: INGEST_WORKFLOW_TIMEOUT,
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    Validations.of(this.stateMachine.role).acknowledge(
      {
        id: "AwsSolutions-IAM5[Resource::*]",
        reason:
          "Step Functions log delivery (logs:CreateLogDelivery and related) and X-Ray segment writes have no resource-level permissions.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${functionLogicalId(props.ingest)}.Arn>:*]`,
        reason:
          "Invoking the ingest function may name its version or alias; the grant is on that one function.",
      },
    );

    this.rule = new Rule(this, "ObjectCreated", {
      description: "New batch files in the ingest bucket start an ingest workflow",
      eventPattern: {
        source: ["aws.s3"],
        detailType: ["Object Created"],
        detail: {
          bucket: { name: [props.bucket.bucketName] },
          object: { key: Match.wildcard(`${props.prefix}*${props.suffix}`) },
        },
      },
      targets: [new SfnStateMachine(this.stateMachine)],
    });
  }
}

function functionLogicalId(fn: IFunction): string {
  const resource = fn.node.defaultChild;
  if (resource === undefined) return fn.node.id;
  return fn.stack.getLogicalId(resource as CfnElement);
}
