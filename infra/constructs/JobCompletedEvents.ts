import { Duration } from "aws-cdk-lib";
import type { IEventBus } from "aws-cdk-lib/aws-events";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { CfnPipe } from "aws-cdk-lib/aws-pipes";
import type { Queue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import {
  FINAL_JOB_STATUSES,
  JOB_COMPLETED_DETAIL_TYPE,
  JOB_EVENT_SOURCE,
  JOB_RECORD_LINE,
} from "../../contract/index.js";
import { PipelineFunction } from "./PipelineFunction.js";
import { streamPipeParts, streamSourceParameters } from "./streamPipeParts.js";

/** Props of {@link JobCompletedEvents}. */
export interface JobCompletedEventsProps {
  /** `functions/jobEvents/handler.ts`. */
  entry: string;
  projectRoot: string;
  /** The jobs table's stream. */
  streamArn: string;
  /** The outcomes bus, where the events go. */
  bus: IEventBus;
  logRetention: RetentionDays;
}

/**
 * The stream records the Pipe publishes: the change of a job record (`line` 0) that gave it a
 * final status, once per job (the status is final once: `JobLedger.complete` is conditional on it
 * not being final yet; a later count change, e.g. a redriven line, keeps it final and is not one).
 */
export const COMPLETED_JOB_PATTERN = {
  eventName: ["MODIFY"],
  dynamodb: {
    Keys: { line: { N: [String(JOB_RECORD_LINE)] } },
    NewImage: { status: { S: [...FINAL_JOB_STATUSES] } },
    OldImage: { status: { S: [{ "anything-but": [...FINAL_JOB_STATUSES] }] } },
  },
};

/**
 * "Decision Job Completed" events on the outcomes bus (source `decisions.jobs`): a Pipe on the
 * jobs table's stream, filtered to {@link COMPLETED_JOB_PATTERN}, whose enrichment function
 * (`functions/jobEvents/handler.ts`) turns each record's new image into the contract's
 * `JobCompletedDetail`; the Pipe puts that on the bus as the event's detail. Records it cannot
 * deliver are kept in {@link undelivered}. The Pipe's role may read that stream, invoke that
 * function, put events on that bus and send to that queue; the function's role writes its logs
 * only.
 */
export class JobCompletedEvents extends Construct {
  readonly pipe: CfnPipe;
  readonly enrichment: IFunction;
  /** Stream records of completed jobs the Pipe could not publish (14 days). */
  readonly undelivered: Queue;

  constructor(scope: Construct, id: string, props: JobCompletedEventsProps) {
    super(scope, id);
    const fn = new PipelineFunction(this, "Enrichment", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: Duration.seconds(30),
      memorySize: 256,
      logRetention: props.logRetention,
      description: "Turns a completed job's stream record into the Decision Job Completed event's detail",
      environment: {},
    });
    this.enrichment = fn.function;

    const { undelivered, role } = streamPipeParts(this, {
      streamArn: props.streamArn,
      pipeName: "job events",
      roleDescription:
        "Job events Pipe: reads the jobs table's stream, invokes its enrichment, puts events on the outcomes bus",
    });
    this.undelivered = undelivered;
    role.addToPolicy(
      new PolicyStatement({ actions: ["lambda:InvokeFunction"], resources: [fn.function.functionArn] }),
    );
    role.addToPolicy(
      new PolicyStatement({ actions: ["events:PutEvents"], resources: [props.bus.eventBusArn] }),
    );
    role.addToPolicy(
      new PolicyStatement({ actions: ["sqs:SendMessage"], resources: [this.undelivered.queueArn] }),
    );

    this.pipe = new CfnPipe(this, "Pipe", {
      description: "Publishes Decision Job Completed events (a job's final status) to the outcomes bus",
      roleArn: role.roleArn,
      source: props.streamArn,
      sourceParameters: streamSourceParameters(this.undelivered, COMPLETED_JOB_PATTERN),
      enrichment: fn.function.functionArn,
      target: props.bus.eventBusArn,
      targetParameters: {
        eventBridgeEventBusParameters: { source: JOB_EVENT_SOURCE, detailType: JOB_COMPLETED_DETAIL_TYPE },
      },
    });
    // The role's policy must exist before the Pipe starts reading.
    this.pipe.node.addDependency(role);
  }
}
