import { CfnOutput } from "aws-cdk-lib";
import type { StackHost } from "./stackInputs.js";

/** The stack's outputs: the queues, endpoints, tables, bus, bucket, workflow, alarm topic and dashboard. */
export function addOutputs(
  host: StackHost<
    | "lanes"
    | "decisionEndpoint"
    | "outcomes"
    | "jobs"
    | "ingestBucket"
    | "ingestWorkflow"
    | "alarms"
    | "dashboard"
    | "shadowEndpoint"
    | "standardEndpoint"
  >,
): void {
  const outputs: Record<string, { value: string; description: string }> = {
    InteractiveQueueUrl: {
      value: host.lanes.interactive.workQueue.queue.queueUrl,
      description:
        "the interactive lane (items someone waits on; the incident rule sends here): decisions submit --queue-url <this>",
    },
    InteractiveDeadLetterQueueUrl: {
      value: host.lanes.interactive.workQueue.deadLetterQueue.queueUrl,
      description: "dead-lettered work items of the interactive lane",
    },
    BulkQueueUrl: {
      value: host.lanes.bulk.workQueue.queue.queueUrl,
      description:
        "the bulk lane (batch jobs' lines; work nobody waits on item by item): decisions submit --queue-url <this>",
    },
    BulkDeadLetterQueueUrl: {
      value: host.lanes.bulk.workQueue.deadLetterQueue.queueUrl,
      description: "dead-lettered work items of the bulk lane",
    },
    DecisionEndpointName: {
      value: host.decisionEndpoint.endpointName,
      description: "the decision endpoint",
    },
    OutcomesTableName: {
      value: host.outcomes.table.tableName,
      description: "decisions outcomes --table <this>",
    },
    JobsTableName: {
      value: host.jobs.table.tableName,
      description: "decisions jobs list --table <this>",
    },
    OutcomesBusName: {
      value: host.outcomes.bus.eventBusName,
      description: "rules here receive every outcome",
    },
    IngestBucketName: {
      value: host.ingestBucket.bucket.bucketName,
      description: "upload JSONL batch files under the ingest prefix",
    },
    IngestWorkflowArn: {
      value: host.ingestWorkflow.stateMachine.stateMachineArn,
      description: "one execution per batch file",
    },
    AlarmTopicArn: { value: host.alarms.topic.topicArn, description: "subscribe to the pipeline's alarms" },
    DashboardName: { value: host.dashboard.dashboard.dashboardName, description: "CloudWatch dashboard" },
  };
  if (host.shadowEndpoint !== undefined) {
    outputs.ShadowEndpointName = {
      value: host.shadowEndpoint.endpointName,
      description: "the shadow step's candidate endpoint (policies' shadow sections ask it)",
    };
  }
  if (host.standardEndpoint !== undefined) {
    outputs.StandardEndpointName = {
      value: host.standardEndpoint.endpointName,
      description: "the standard text-generation endpoint",
    };
  }
  for (const [id, output] of Object.entries(outputs)) new CfnOutput(host, id, output);
}
