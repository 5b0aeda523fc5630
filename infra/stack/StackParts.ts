import type { Construct } from "constructs";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { DecideCapacity, LaneCapacity } from "../capacity/deriveDecideCapacity.js";
import type { PolicyCatalogueEntry } from "../config/readPolicyCatalogue.js";
import type { CapacityController } from "../constructs/CapacityController.js";
import type { DecideFunction } from "../constructs/DecideFunction.js";
import type { DecisionEndpoint } from "../constructs/DecisionEndpoint.js";
import type { FrontDoor } from "../constructs/FrontDoor.js";
import type { IncidentRule } from "../constructs/IncidentRule.js";
import type { IngestBucket } from "../constructs/IngestBucket.js";
import type { IngestFunction } from "../constructs/IngestFunction.js";
import type { IngestWorkflow } from "../constructs/IngestWorkflow.js";
import type { JobCompletedEvents } from "../constructs/JobCompletedEvents.js";
import type { JobResultsFunction } from "../constructs/JobResultsFunction.js";
import type { JobsMonitorFunction } from "../constructs/JobsMonitorFunction.js";
import type { JobsTable } from "../constructs/JobsTable.js";
import type { LaneComponents } from "../constructs/LaneComponents.js";
import type { OutcomeDeliveries } from "../constructs/OutcomeDeliveries.js";
import type { OutcomesTable } from "../constructs/OutcomesTable.js";
import type { PipelineAlarms } from "../constructs/PipelineAlarms.js";
import type { PipelineDashboard } from "../constructs/PipelineDashboard.js";
import type { ReviewConsole } from "../constructs/ReviewConsole.js";
import type { ShadowEndpoint } from "../constructs/ShadowEndpoint.js";
import type { ShadowMonitoring } from "../constructs/ShadowMonitoring.js";
import type { StandardEndpoint } from "../constructs/StandardEndpoint.js";
import type { WorkQueue } from "../constructs/WorkQueue.js";

/** One lane of the pipeline in the stack: its work queue and DLQ, its decide function, its share of the endpoint. */
export interface DecisionLane {
  lane: Lane;
  workQueue: WorkQueue;
  decide: DecideFunction;
  /** The decide function's concurrency: the lane's share of what the endpoint admits at minimum capacity. */
  capacity: LaneCapacity;
}

/**
 * The parts of the stack (`DecisionsStack` implements it), each built by one step of infra/stack/:
 * the steps read the parts built before them through {@link StackHost}, not the stack's class, so
 * that no step imports the stack that imports it.
 */
export interface StackParts {
  /** The lanes, each with its queue, DLQ and decide function. */
  readonly lanes: Readonly<Record<Lane, DecisionLane>>;
  readonly decisionEndpoint: DecisionEndpoint;
  /** With `layout=lanes-from-zero`: an inference component per lane on the decision endpoint. */
  readonly laneComponents: LaneComponents | undefined;
  readonly standardEndpoint: StandardEndpoint | undefined;
  /** The candidate endpoint of the shadow step, with the `shadowModelDataUrl` knob. */
  readonly shadowEndpoint: ShadowEndpoint | undefined;
  /** The shadow step's dashboard row and failure-rate alarm, with the candidate endpoint only. */
  readonly shadowMonitoring: ShadowMonitoring | undefined;
  readonly outcomes: OutcomesTable;
  /** Batch jobs: one per ingested object version, counted by the decide and ingest functions. */
  readonly jobs: JobsTable;
  /** Writes a job's results, manifest and final status once its last line has ended. */
  readonly jobResults: JobResultsFunction;
  /** "Decision Job Completed" events on the outcomes bus, from the jobs table's stream. */
  readonly jobEvents: JobCompletedEvents;
  /** Checks the jobs in progress every 5 minutes (the stalled-jobs alarm and the dashboard read it). */
  readonly jobsMonitor: JobsMonitorFunction;
  readonly ingestBucket: IngestBucket;
  readonly ingest: IngestFunction;
  readonly ingestWorkflow: IngestWorkflow;
  readonly incidents: IncidentRule;
  readonly alarms: PipelineAlarms;
  readonly dashboard: PipelineDashboard;
  /** Each minute: publishes the bulk backlog per instance and sets each lane's concurrency to what the endpoint admits now. */
  readonly capacityController: CapacityController;
  /** The deployed review console: page on CloudFront, HTTP API with a Cognito JWT authorizer. */
  readonly reviewConsole: ReviewConsole;
  /** Work items over HTTPS: SigV4 or signed webhooks, onto the lane queues. */
  readonly frontDoor: FrontDoor;
  /** The decide functions' concurrency per lane, derived from what the endpoint admits at minimum capacity. */
  readonly decideCapacity: DecideCapacity;
  /** Delivery of outcomes to the policies' `deliver:` targets, when a policy has one. */
  readonly deliveries: OutcomeDeliveries | undefined;
  /** The policies deployed with the functions. */
  readonly policies: readonly PolicyCatalogueEntry[];
}

/**
 * The stack a step adds its constructs to, with the parts built before it that the step reads
 * (`StackHost<"outcomes" | "jobs">`): each step names what it depends on.
 */
export type StackHost<Part extends keyof StackParts = never> = Construct & Pick<StackParts, Part>;
