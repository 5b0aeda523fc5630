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
  Map as MapState,
  Pass,
  ProvideItems,
  QueryLanguage,
  StateMachine,
  Succeed,
} from "aws-cdk-lib/aws-stepfunctions";
import { LambdaInvoke } from "aws-cdk-lib/aws-stepfunctions-tasks";
import { Construct } from "constructs";

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
 * Batch classification from S3: every new object under the prefix (an S3 "Object Created" event on
 * EventBridge) starts a Step Functions loop that invokes the ingest function with a checkpoint
 * `{bucket, key, versionId, line: 1, byteOffset: 0}`, then again with each checkpoint of the
 * result's `pending` until none is left, so files of any length are read in bounded invocations and
 * no continuation is lost. Failed executions are visible (and alarmed on); logs and X-Ray traces
 * are kept.
 */
export class IngestWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: IngestWorkflowProps) {
    super(scope, id);
    const start = Pass.jsonata(this, "FirstCheckpoint", {
      comment: "The whole object, from its first line",
      assign: {
        pending:
          '{% [{"bucket": $states.input.detail.bucket.name, "key": $states.input.detail.object.key, "versionId": $states.input.detail.object.`version-id`, "line": 1, "byteOffset": 0}] %}',
      },
    });
    const invoke = LambdaInvoke.jsonata(this, "IngestFrom", {
      lambdaFunction: props.ingest,
      outputs: "{% $states.result.Payload %}",
    });
    const continuations = MapState.jsonata(this, "IngestPending", {
      items: ProvideItems.jsonata("{% $pending %}"),
      maxConcurrency: 1,
      // Every result's `pending`, flattened into one list (empty when all objects are done).
      assign: { pending: "{% [$states.result.pending] %}" },
    }).itemProcessor(invoke);
    const more = Choice.jsonata(this, "MoreToRead")
      .when(Condition.jsonata("{% $count($pending) > 0 %}"), continuations)
      .otherwise(Succeed.jsonata(this, "Done"));
    continuations.next(more);
    const logs = new LogGroup(this, "Logs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new StateMachine(this, "StateMachine", {
      queryLanguage: QueryLanguage.JSONATA,
      definitionBody: DefinitionBody.fromChainable(start.next(more)),
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
