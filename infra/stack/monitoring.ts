import { Duration } from "aws-cdk-lib";
import { LANES } from "../../contract/lanes/lanes.js";
import { PipelineAlarms } from "../constructs/PipelineAlarms.js";
import { PipelineDashboard } from "../constructs/PipelineDashboard.js";
import type { PipelineLane } from "../constructs/pipelineMetrics.js";
import { SHADOW_VARIANT_NAME } from "../constructs/ShadowEndpoint.js";
import { ShadowMonitoring } from "../constructs/ShadowMonitoring.js";
import type { StackHost, StackInputs } from "./stackInputs.js";

/** The pipeline's alarms (and their topic) over the queues, functions, endpoint and policies. */
export function addAlarms(
  host: StackHost<
    | "lanes"
    | "outcomes"
    | "jobResults"
    | "jobEvents"
    | "decisionEndpoint"
    | "ingest"
    | "jobsMonitor"
    | "ingestWorkflow"
    | "policies"
  >,
  { settings }: StackInputs,
): PipelineAlarms {
  return new PipelineAlarms(host, "Alarms", {
    lanes: pipelineLanes(host),
    undeliveredOutcomes: host.outcomes.undelivered,
    unwrittenJobResults: host.jobResults.unwritten,
    undeliveredJobEvents: host.jobEvents.undelivered,
    endpointAlarms: [host.decisionEndpoint.alarms.errorRate5xx, host.decisionEndpoint.alarms.modelErrorRate],
    endpointName: host.decisionEndpoint.physicalName,
    variantName: host.decisionEndpoint.variantName,
    ingestFunction: host.ingest.function,
    jobsMonitorFunction: host.jobsMonitor.function,
    jobStallMinutes: settings.jobStallMinutes,
    ingestWorkflow: host.ingestWorkflow.stateMachine,
    metricsNamespace: settings.metricsNamespace,
    policies: host.policies.map((policy) => policy.name),
    oldestMessageAge: {
      interactive: Duration.seconds(settings.oldestMessageAlarmSeconds),
      bulk: Duration.seconds(settings.bulkOldestMessageAlarmSeconds),
    },
    interactiveLatency: Duration.seconds(settings.interactiveLatencyAlarmSeconds),
    fallbackRatePercent: settings.fallbackRateAlarmPercent,
    fallbackMinDecisions: settings.fallbackRateAlarmMinDecisions,
    email: settings.alarmEmail,
  });
}

/** The CloudWatch dashboard over the alarms' metrics, the queues, functions and workflow. */
export function addDashboard(
  host: StackHost<"alarms" | "lanes" | "ingest" | "ingestWorkflow">,
): PipelineDashboard {
  return new PipelineDashboard(host, "Dashboard", {
    metrics: host.alarms.metrics,
    lanes: pipelineLanes(host),
    ingestFunction: host.ingest.function,
    ingestWorkflow: host.ingestWorkflow.stateMachine,
  });
}

/** The shadow step's dashboard row and alarm, when the candidate endpoint is deployed (none otherwise). */
export function addShadowMonitoring(
  host: StackHost<"shadowEndpoint" | "policies" | "dashboard" | "alarms">,
  { settings }: StackInputs,
): ShadowMonitoring | undefined {
  if (host.shadowEndpoint === undefined) return undefined;
  return new ShadowMonitoring(host, "ShadowMonitoring", {
    metricsNamespace: settings.metricsNamespace,
    policies: host.policies.map((policy) => policy.name),
    endpointName: host.shadowEndpoint.endpointName,
    variantName: SHADOW_VARIANT_NAME,
    dashboard: host.dashboard.dashboard,
    alarmTopic: host.alarms.topic,
  });
}

/** The lanes as the alarms and the dashboard see them, in `LANES` order. */
function pipelineLanes(host: StackHost<"lanes">): PipelineLane[] {
  return LANES.map((lane) => ({
    lane,
    queue: host.lanes[lane].workQueue.queue,
    deadLetterQueue: host.lanes[lane].workQueue.deadLetterQueue,
    decideFunction: host.lanes[lane].decide.function,
  }));
}
