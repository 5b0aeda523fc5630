import { join } from "node:path";
import { Stack, type StackProps } from "aws-cdk-lib";
import type { Construct } from "constructs";
import type { Lane } from "../contract/lanes/lanes.js";
import type { DecideCapacity } from "./capacity/deriveDecideCapacity.js";
import type { InfraSettings } from "./config/InfraSettings.js";
import { type PolicyCatalogueEntry, readPolicyCatalogue } from "./config/readPolicyCatalogue.js";
import type { CapacityController } from "./constructs/CapacityController.js";
import type { DecisionEndpoint } from "./constructs/DecisionEndpoint.js";
import { DriftMonitorFunction } from "./constructs/DriftMonitorFunction.js";
import type { FrontDoor } from "./constructs/FrontDoor.js";
import type { IncidentRule } from "./constructs/IncidentRule.js";
import type { IngestBucket } from "./constructs/IngestBucket.js";
import type { IngestFunction } from "./constructs/IngestFunction.js";
import type { IngestWorkflow } from "./constructs/IngestWorkflow.js";
import type { JobCompletedEvents } from "./constructs/JobCompletedEvents.js";
import type { JobResultsFunction } from "./constructs/JobResultsFunction.js";
import type { JobsMonitorFunction } from "./constructs/JobsMonitorFunction.js";
import type { JobsTable } from "./constructs/JobsTable.js";
import type { LaneComponents } from "./constructs/LaneComponents.js";
import { OutcomeDeliveries } from "./constructs/OutcomeDeliveries.js";
import type { OutcomesTable } from "./constructs/OutcomesTable.js";
import type { PipelineAlarms } from "./constructs/PipelineAlarms.js";
import type { PipelineDashboard } from "./constructs/PipelineDashboard.js";
import type { ReviewConsole } from "./constructs/ReviewConsole.js";
import type { ShadowEndpoint } from "./constructs/ShadowEndpoint.js";
import type { ShadowMonitoring } from "./constructs/ShadowMonitoring.js";
import type { StandardEndpoint } from "./constructs/StandardEndpoint.js";
import { addCapacityController } from "./stack/capacityController.js";
import {
  addDecisionEndpoint,
  addLaneComponents,
  addShadowEndpoint,
  addStandardEndpoint,
} from "./stack/endpoints.js";
import {
  acknowledgeBucketNotificationsHandler,
  addFrontDoor,
  addIncidentRule,
  addIngestBucket,
  addIngestFunction,
  addIngestWorkflow,
  warnWhenNoPolicyMapsIncidents,
} from "./stack/intake.js";
import { addJobEvents, addJobResultsFunction, addJobsMonitorFunction } from "./stack/jobs.js";
import { addDecideFunctions, addWorkQueues, decideCapacityAtMinimum } from "./stack/lanes.js";
import { addAlarms, addDashboard, addShadowMonitoring } from "./stack/monitoring.js";
import { addOutputs } from "./stack/outputs.js";
import { addReviewConsole } from "./stack/reviewConsole.js";
import type { DecisionLane, StackParts } from "./stack/StackParts.js";
import { type DecisionsSources, stackInputsOf } from "./stack/stackInputs.js";
import { addTables } from "./stack/tables.js";

export type { DecisionLane } from "./stack/StackParts.js";
export type { DecisionsSources } from "./stack/stackInputs.js";

/** Props of {@link DecisionsStack}. */
export interface DecisionsStackProps extends StackProps {
  settings: InfraSettings;
  sources: DecisionsSources;
}

/**
 * The whole decision pipeline in one stack: the decision endpoint (and optionally the standard
 * one); two lanes, `interactive` and `bulk`, each a work queue with its DLQ and a decide function
 * on it sized for the lane's share of the endpoint; batch ingest from S3 into the bulk lane; the
 * incident rule into the interactive lane; the outcomes table with its stream published to a bus;
 * alarms (per lane where a lane has its own) and a dashboard.
 */
export class DecisionsStack extends Stack implements StackParts {
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

  constructor(scope: Construct, id: string, props: DecisionsStackProps) {
    super(scope, id, props);
    const inputs = stackInputsOf(props);
    this.policies = props.sources.policies ?? readPolicyCatalogue(join(inputs.projectRoot, "policies"));
    // Construction order is the template's resource order: keep these steps in this order. Each
    // step (infra/stack/) reads the parts built before it from the stack.
    this.decisionEndpoint = addDecisionEndpoint(this, inputs);
    this.laneComponents = addLaneComponents(this, inputs);
    this.standardEndpoint = addStandardEndpoint(this, inputs);
    this.shadowEndpoint = addShadowEndpoint(this, inputs);
    const workQueues = addWorkQueues(this, inputs);
    const tables = addTables(this, inputs);
    this.outcomes = tables.outcomes;
    this.jobs = tables.jobs;
    this.decideCapacity = decideCapacityAtMinimum(this, inputs);
    this.ingestBucket = addIngestBucket(this);
    this.lanes = addDecideFunctions(this, inputs, workQueues);
    this.ingest = addIngestFunction(this, inputs);
    this.ingestWorkflow = addIngestWorkflow(this, inputs);
    this.jobResults = addJobResultsFunction(this, inputs);
    this.jobEvents = addJobEvents(this, inputs);
    this.jobsMonitor = addJobsMonitorFunction(this, inputs);
    this.incidents = addIncidentRule(this, inputs);
    this.alarms = addAlarms(this, inputs);
    this.dashboard = addDashboard(this);
    this.capacityController = addCapacityController(this, inputs);
    this.reviewConsole = addReviewConsole(this, inputs);
    this.frontDoor = addFrontDoor(this, inputs);
    DriftMonitorFunction.addTo(this, inputs);
    this.shadowMonitoring = addShadowMonitoring(this, inputs);
    this.deliveries = OutcomeDeliveries.addTo(this, inputs);

    warnWhenNoPolicyMapsIncidents(this, inputs);
    acknowledgeBucketNotificationsHandler(this);
    addOutputs(this);
  }
}
