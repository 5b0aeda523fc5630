import { join } from "node:path";
import { Annotations, Validations } from "aws-cdk-lib";
import type { Construct } from "constructs";
import { JOB_LANE } from "../../contract/lanes/lanes.js";
import { INCIDENT_LANE } from "../constants.js";
import { FrontDoor } from "../constructs/FrontDoor.js";
import { IncidentRule } from "../constructs/IncidentRule.js";
import { IngestBucket } from "../constructs/IngestBucket.js";
import { IngestFunction } from "../constructs/IngestFunction.js";
import { IngestWorkflow } from "../constructs/IngestWorkflow.js";
import type { StackHost, StackInputs } from "./stackInputs.js";

/** The bucket batch files are uploaded to (and results and review states are written to). */
export function addIngestBucket(host: StackHost): IngestBucket {
  return new IngestBucket(host, "IngestBucket");
}

/** The ingest function: batch files from the ingest bucket onto the bulk lane's queue (`JOB_LANE`). */
export function addIngestFunction(
  host: StackHost<"ingestBucket" | "lanes" | "outcomes" | "jobs">,
  { settings, sources, projectRoot, logRetention }: StackInputs,
): IngestFunction {
  return new IngestFunction(host, "Ingest", {
    entry: sources.ingestEntry ?? join(projectRoot, "functions", "ingest", "handler.ts"),
    projectRoot,
    bucket: host.ingestBucket.bucket,
    prefix: settings.ingestPrefix,
    queue: host.lanes[JOB_LANE].workQueue.queue,
    table: host.outcomes.table,
    maxLinesPerInvocation: settings.ingestMaxLinesPerInvocation,
    jobsTable: host.jobs.table,
    memorySize: settings.functionMemoryMb,
    metricsNamespace: settings.metricsNamespace,
    logRetention,
  });
}

/** The workflow that runs the ingest function once per uploaded batch file. */
export function addIngestWorkflow(
  host: StackHost<"ingestBucket" | "ingest">,
  { settings, logRetention }: StackInputs,
): IngestWorkflow {
  return new IngestWorkflow(host, "IngestWorkflow", {
    bucket: host.ingestBucket.bucket,
    prefix: settings.ingestPrefix,
    suffix: settings.ingestSuffix,
    ingest: host.ingest.function,
    logRetention,
  });
}

/** The rule that puts incident events from the bus onto the interactive lane's queue. */
export function addIncidentRule(host: StackHost<"lanes">, { settings }: StackInputs): IncidentRule {
  const { workQueue } = host.lanes[INCIDENT_LANE];
  return new IncidentRule(host, "IncidentRule", {
    busName: settings.incidentEventBus,
    source: settings.incidentSource,
    detailType: settings.incidentDetailType,
    queue: workQueue.queue,
    deadLetterQueue: workQueue.deadLetterQueue,
  });
}

/** Work items over HTTPS: SigV4 or signed webhooks, onto the lane queues. */
export function addFrontDoor(
  host: StackHost<"lanes">,
  { settings, projectRoot, logRetention }: StackInputs,
): FrontDoor {
  return new FrontDoor(host, "FrontDoor", {
    entry: join(projectRoot, "functions", "frontDoor", "handler.ts"),
    projectRoot,
    queues: { interactive: host.lanes.interactive.workQueue.queue, bulk: host.lanes.bulk.workQueue.queue },
    memorySize: settings.functionMemoryMb,
    logRetention,
  });
}

/** An incident rule whose events no policy maps would turn every incident into a `rejected` outcome. */
export function warnWhenNoPolicyMapsIncidents(
  host: StackHost<"policies" | "incidents">,
  { settings }: StackInputs,
): void {
  const mapped = host.policies.some((policy) =>
    policy.events.some(
      (event) => event.source === settings.incidentSource && event.detailType === settings.incidentDetailType,
    ),
  );
  if (!mapped) {
    Annotations.of(host.incidents).addWarningV2(
      "decisions:incidentEventsUnmapped",
      `no policy maps events of source "${settings.incidentSource}" and detail-type "${settings.incidentDetailType}" (knobs incidentSource, incidentDetailType): each such event would be recorded as rejected`,
    );
  }
}

/**
 * S3 bucket notifications are configured by a custom resource that CDK adds to the stack (a
 * singleton Lambda function); its findings are CDK's, acknowledged here with reasons.
 */
export function acknowledgeBucketNotificationsHandler(host: Construct): void {
  for (const child of host.node.children) {
    if (!child.node.id.startsWith("BucketNotificationsHandler")) continue;
    Validations.of(child).acknowledge({
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
      reason:
        "CDK's bucket-notifications custom resource (runs at deploy only, to configure this stack's bucket) logs with the basic execution role.",
    });
  }
}
