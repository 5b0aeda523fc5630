import { join } from "node:path";
import {
  Annotations,
  Aws,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from "aws-cdk-lib";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { JOB_LANE, LANES, type Lane } from "../contract/lanes/lanes.js";
import { deriveComponentDecideCapacity } from "./capacity/deriveComponentDecideCapacity.js";
import {
  type DecideCapacity,
  deriveDecideCapacity,
  type LaneCapacity,
} from "./capacity/deriveDecideCapacity.js";
import { deriveScalingTimes } from "./capacity/deriveScalingTimes.js";
import { laneBatchSize } from "./capacity/laneBatchSize.js";
import { readConsoleSite } from "./config/readConsoleSite.js";
import type { InfraSettings } from "./config/readInfraSettings.js";
import { type PolicyCatalogueEntry, readPolicyCatalogue } from "./config/readPolicyCatalogue.js";
import { INCIDENT_LANE } from "./constants.js";
import { CAPACITY_CONTROLLER_SERVICE, CapacityController } from "./constructs/CapacityController.js";
import { DecideFunction } from "./constructs/DecideFunction.js";
import { DecisionEndpoint } from "./constructs/DecisionEndpoint.js";
import { DriftMonitorFunction } from "./constructs/DriftMonitorFunction.js";
import { FrontDoor } from "./constructs/FrontDoor.js";
import { IncidentRule } from "./constructs/IncidentRule.js";
import { IngestBucket, REVIEW_STATES_PREFIX } from "./constructs/IngestBucket.js";
import { IngestFunction } from "./constructs/IngestFunction.js";
import { IngestWorkflow } from "./constructs/IngestWorkflow.js";
import { JobCompletedEvents } from "./constructs/JobCompletedEvents.js";
import { JobResultsFunction } from "./constructs/JobResultsFunction.js";
import { JobsMonitorFunction } from "./constructs/JobsMonitorFunction.js";
import { JobsTable } from "./constructs/JobsTable.js";
import { LaneComponents } from "./constructs/LaneComponents.js";
import { OutcomeDeliveries } from "./constructs/OutcomeDeliveries.js";
import { OutcomesTable } from "./constructs/OutcomesTable.js";
import { PipelineAlarms } from "./constructs/PipelineAlarms.js";
import { PipelineDashboard } from "./constructs/PipelineDashboard.js";
import type { PipelineLane } from "./constructs/pipelineMetrics.js";
import { ReviewConsole } from "./constructs/ReviewConsole.js";
import { SHADOW_VARIANT_NAME, ShadowEndpoint } from "./constructs/ShadowEndpoint.js";
import { ShadowMonitoring } from "./constructs/ShadowMonitoring.js";
import { StandardEndpoint } from "./constructs/StandardEndpoint.js";
import { WorkQueue } from "./constructs/WorkQueue.js";

/** Where the stack finds the code it deploys. */
export interface DecisionsSources {
  /** The repository root (build context of the adapter images; `package-lock.json`; `policies/`). */
  projectRoot: string;
  /** The policies the functions bundle. Default: read from `<projectRoot>/policies`. */
  policies?: readonly PolicyCatalogueEntry[];
  /** Default `<projectRoot>/functions/decide/handler.ts`. */
  decideEntry?: string;
  /** Default `<projectRoot>/functions/ingest/handler.ts`. */
  ingestEntry?: string;
  /** Default `<projectRoot>/functions/results/handler.ts`. */
  resultsEntry?: string;
  /** Default `<projectRoot>/functions/jobEvents/handler.ts`. */
  jobEventsEntry?: string;
  /** Default `<projectRoot>/functions/jobsMonitor/handler.ts`. */
  jobsMonitorEntry?: string;
  /** Default `<projectRoot>/functions/capacityController/handler.ts`. */
  capacityControllerEntry?: string;
}

/** One lane of the pipeline in the stack: its work queue and DLQ, its decide function, its share of the endpoint. */
export interface DecisionLane {
  lane: Lane;
  workQueue: WorkQueue;
  decide: DecideFunction;
  /** The decide function's concurrency: the lane's share of what the endpoint admits at minimum capacity. */
  capacity: LaneCapacity;
}

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
export class DecisionsStack extends Stack {
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
    // Construction order is the template's resource order: keep these steps in this order.
    this.decisionEndpoint = this.addDecisionEndpoint(inputs);
    this.laneComponents = this.addLaneComponents(inputs.settings);
    this.standardEndpoint = this.addStandardEndpoint(inputs);
    this.shadowEndpoint = this.addShadowEndpoint(inputs);
    const workQueues = this.addWorkQueues(inputs);
    const tables = this.addTables(inputs.settings);
    this.outcomes = tables.outcomes;
    this.jobs = tables.jobs;
    this.decideCapacity = this.decideCapacityAtMinimum(inputs.settings);
    this.ingestBucket = new IngestBucket(this, "IngestBucket");
    this.lanes = this.addDecideFunctions(inputs, workQueues);
    this.ingest = this.addIngestFunction(inputs);
    this.ingestWorkflow = this.addIngestWorkflow(inputs);
    this.jobResults = this.addJobResultsFunction(inputs);
    this.jobEvents = this.addJobEvents(inputs);
    this.jobsMonitor = this.addJobsMonitorFunction(inputs);
    this.incidents = this.addIncidentRule(inputs.settings);
    this.alarms = this.addAlarms(inputs.settings);
    this.dashboard = this.addDashboard();
    this.capacityController = this.addCapacityController(inputs);
    this.reviewConsole = this.addReviewConsole(inputs);
    this.frontDoor = new FrontDoor(this, "FrontDoor", {
      entry: join(inputs.projectRoot, "functions", "frontDoor", "handler.ts"),
      projectRoot: inputs.projectRoot,
      queues: { interactive: workQueues.interactive.queue, bulk: workQueues.bulk.queue },
      memorySize: inputs.settings.functionMemoryMb,
      logRetention: inputs.logRetention,
    });
    DriftMonitorFunction.addTo(this, inputs);
    this.shadowMonitoring = this.addShadowMonitoring(inputs.settings);
    this.deliveries = OutcomeDeliveries.addTo(this, inputs);

    this.warnWhenNoPolicyMapsIncidents(inputs.settings);
    this.acknowledgeBucketNotificationsHandler();
    this.addOutputs();
  }

  /** The decision endpoint: the adapter images, their models and pools, scaling and alarms. */
  private addDecisionEndpoint({ settings, projectRoot, modelDataUrl }: StackInputs): DecisionEndpoint {
    const scaling = deriveScalingTimes({ instanceStartSeconds: settings.instanceStartSeconds });
    return new DecisionEndpoint(this, "DecisionEndpoint", {
      projectRoot,
      accelerator: settings.accelerator,
      modelDataUrl,
      modelKmsKeyArn: settings.modelKmsKeyArn,
      cpuInstanceType: settings.cpuInstanceType,
      gpuInstancePools: settings.gpuInstancePools,
      cpuFallbackPool: settings.cpuFallbackPool,
      instanceProvisionTimeout: Duration.seconds(settings.instanceProvisionTimeoutSeconds),
      containerStartupTimeout: Duration.seconds(settings.containerStartupTimeoutSeconds),
      modelDownloadTimeout: Duration.seconds(settings.modelDownloadTimeoutSeconds),
      // A copy of a component runs on the cores it reserves.
      cpuThreads:
        settings.layout === "lanes-from-zero" && settings.cpuThreads === "auto"
          ? settings.componentCpuCores
          : settings.cpuThreads,
      gpuLayers: settings.gpuLayers,
      contextSize: settings.contextSize,
      cpu: {
        requestsPerInstance: settings.cpuRequestsPerInstance,
        requestTimeout: Duration.seconds(settings.cpuRequestTimeoutSeconds),
      },
      gpu: {
        requestsPerInstance: settings.gpuRequestsPerInstance,
        requestTimeout: Duration.seconds(settings.gpuRequestTimeoutSeconds),
      },
      interactiveReserve: settings.interactiveReservePerInstance,
      minInstances: settings.minInstances,
      maxInstances: settings.maxInstances,
      goalScaling: {
        metricsNamespace: settings.metricsNamespace,
        service: CAPACITY_CONTROLLER_SERVICE,
        scaleOutCooldown: Duration.seconds(scaling.scaleOutCooldownSeconds),
        scaleInCooldown: Duration.seconds(scaling.scaleInCooldownSeconds),
      },
      layout: settings.layout,
      deploymentBake: Duration.seconds(settings.deploymentBakeSeconds),
      alarmMinInvocations: settings.endpointAlarmMinInvocations,
      alarm5xxPercent: settings.endpoint5xxAlarmPercent,
    });
  }

  /** With `layout=lanes-from-zero`: each lane's inference component and its scaling (none otherwise). */
  private addLaneComponents(settings: InfraSettings): LaneComponents | undefined {
    if (settings.layout !== "lanes-from-zero") return undefined;
    const scaling = deriveScalingTimes({ instanceStartSeconds: settings.instanceStartSeconds });
    return new LaneComponents(this, "LaneComponents", {
      endpoint: this.decisionEndpoint,
      copy: {
        cpuCores: settings.componentCpuCores,
        memoryMb: settings.componentMemoryMb,
        ...(settings.accelerator === "gpu" ? { acceleratorDevices: 1 } : {}),
      },
      interactiveMinCopies: settings.minInstances,
      maxCopies: settings.maxInstances,
      containerStartupTimeout: Duration.seconds(settings.containerStartupTimeoutSeconds),
      modelDownloadTimeout: Duration.seconds(settings.modelDownloadTimeoutSeconds),
      goalScaling: {
        metricsNamespace: settings.metricsNamespace,
        service: CAPACITY_CONTROLLER_SERVICE,
        scaleOutCooldown: Duration.seconds(scaling.scaleOutCooldownSeconds),
        scaleInCooldown: Duration.seconds(scaling.scaleInCooldownSeconds),
      },
    });
  }

  /** The standard text-generation endpoint, when asked for and given an image. */
  private addStandardEndpoint({ settings, modelDataUrl }: StackInputs): StandardEndpoint | undefined {
    return settings.standardEndpoint && settings.standardImage !== undefined
      ? new StandardEndpoint(this, "StandardEndpoint", {
          image: settings.standardImage,
          instanceType: settings.standardInstanceType,
          ...(settings.standardHfRepo !== ""
            ? { hub: { repo: settings.standardHfRepo, file: settings.standardHfFile } }
            : {
                modelDataUrl:
                  settings.standardModelDataUrl === ""
                    ? modelDataUrl
                    : resolvePlaceholders(settings.standardModelDataUrl),
              }),
          contextSize: settings.contextSize,
        })
      : undefined;
  }

  /** The shadow step's candidate endpoint, when `shadowModelDataUrl` names a model (none otherwise). */
  private addShadowEndpoint({ settings, projectRoot }: StackInputs): ShadowEndpoint | undefined {
    if (settings.shadowModelDataUrl === "") return undefined;
    const gpu = settings.accelerator === "gpu";
    return new ShadowEndpoint(this, "ShadowEndpoint", {
      projectRoot,
      image: gpu ? "gpu" : "cpu",
      instanceType:
        settings.shadowInstanceType ||
        (gpu ? (settings.gpuInstancePools[0] ?? settings.cpuInstanceType) : settings.cpuInstanceType),
      modelDataUrl: resolvePlaceholders(settings.shadowModelDataUrl),
      modelKmsKeyArn: settings.modelKmsKeyArn,
      contextSize: settings.contextSize,
      gpuLayers: settings.gpuLayers,
      cpuThreads: settings.cpuThreads,
      requestsPerInstance: gpu ? settings.gpuRequestsPerInstance : settings.cpuRequestsPerInstance,
      requestTimeout: Duration.seconds(
        gpu ? settings.gpuRequestTimeoutSeconds : settings.cpuRequestTimeoutSeconds,
      ),
      containerStartupTimeout: Duration.seconds(settings.containerStartupTimeoutSeconds),
      modelDownloadTimeout: Duration.seconds(settings.modelDownloadTimeoutSeconds),
    });
  }

  /** Each lane's work queue and its dead-letter queue (`InteractiveWorkQueue`, `BulkWorkQueue`). */
  private addWorkQueues({ settings, functionTimeout, batchingWindow }: StackInputs): Record<Lane, WorkQueue> {
    return perLane(
      (lane) =>
        new WorkQueue(this, laneId(lane, "WorkQueue"), {
          consumerTimeout: functionTimeout,
          batchingWindow,
          maxReceiveCount: settings.maxReceiveCount,
          maxMessageBytes: settings.maxMessageBytes,
          retention: Duration.days(settings.queueRetentionDays),
        }),
    );
  }

  /** The outcomes table (with its stream's bus) and the jobs table, under one removal policy. */
  private addTables(settings: InfraSettings): { outcomes: OutcomesTable; jobs: JobsTable } {
    const tableRemovalPolicy =
      settings.outcomesRemovalPolicy === "retain"
        ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
        : RemovalPolicy.DESTROY;
    const outcomes = new OutcomesTable(this, "Outcomes", {
      removalPolicy: tableRemovalPolicy,
      busName: settings.outcomesBusName,
    });
    const jobs = new JobsTable(this, "Jobs", { removalPolicy: tableRemovalPolicy });
    return { outcomes, jobs };
  }

  /** Each lane's decide concurrency, from what the decision endpoint admits at minimum capacity. */
  private decideCapacityAtMinimum(settings: InfraSettings): DecideCapacity {
    if (settings.layout === "lanes-from-zero") {
      return deriveComponentDecideCapacity({
        interactiveMinCopies: settings.minInstances,
        requestsPerCopy: Math.min(...this.decisionEndpoint.pools.map((pool) => pool.requestsPerInstance)),
        configuredGroupsPerInvocation: settings.maxConcurrentGroups,
      });
    }
    return deriveDecideCapacity({
      minInstances: this.decisionEndpoint.minInstances,
      requestsPerInstanceByPool: this.decisionEndpoint.pools.map((pool) => pool.requestsPerInstance),
      interactiveReservePerInstance: settings.interactiveReservePerInstance,
      configuredGroupsPerInvocation: settings.maxConcurrentGroups,
    });
  }

  /** One decide function per lane (`InteractiveDecide`, `BulkDecide`), each on its lane's queue. */
  private addDecideFunctions(
    inputs: StackInputs,
    workQueues: Record<Lane, WorkQueue>,
  ): Record<Lane, DecisionLane> {
    return perLane((lane) => {
      const capacity = this.decideCapacity.lanes[lane];
      const workQueue = workQueues[lane];
      const decide = this.addDecideFunction(inputs, lane, workQueue, capacity);
      return { lane, workQueue, decide, capacity };
    });
  }

  /** A lane's decide function: scores through the endpoint, writes outcomes and jobs. */
  private addDecideFunction(
    inputs: StackInputs,
    lane: Lane,
    workQueue: WorkQueue,
    capacity: LaneCapacity,
  ): DecideFunction {
    const { settings, sources, projectRoot, logRetention, functionTimeout, batchingWindow } = inputs;
    return new DecideFunction(this, laneId(lane, "Decide"), {
      entry: sources.decideEntry ?? join(projectRoot, "functions", "decide", "handler.ts"),
      projectRoot,
      lane,
      queue: workQueue.queue,
      table: this.outcomes.table,
      statusIndexArn: this.outcomes.statusIndexArn,
      endpointName: this.decisionEndpoint.endpointName,
      endpointArn: this.decisionEndpoint.endpointArn,
      ...(this.laneComponents !== undefined ? { component: this.laneComponents.lanes[lane] } : {}),
      ...(this.shadowEndpoint !== undefined ? { candidate: this.shadowEndpoint } : {}),
      timeout: functionTimeout,
      memorySize: settings.functionMemoryMb,
      batchSize: laneBatchSize(lane, settings.batchSize, capacity.groupsPerInvocation),
      batchingWindow,
      maxConcurrency: capacity.maxConcurrency,
      maxConcurrentGroups: capacity.groupsPerInvocation,
      metricsNamespace: settings.metricsNamespace,
      logRetention,
      reviewStates: { bucket: this.ingestBucket.bucket, prefix: REVIEW_STATES_PREFIX },
      jobs: { table: this.jobs.table, maxReceiveCount: settings.maxReceiveCount },
    });
  }

  /** The ingest function: batch files from the ingest bucket onto the bulk lane's queue (`JOB_LANE`). */
  private addIngestFunction({ settings, sources, projectRoot, logRetention }: StackInputs): IngestFunction {
    return new IngestFunction(this, "Ingest", {
      entry: sources.ingestEntry ?? join(projectRoot, "functions", "ingest", "handler.ts"),
      projectRoot,
      bucket: this.ingestBucket.bucket,
      prefix: settings.ingestPrefix,
      queue: this.lanes[JOB_LANE].workQueue.queue,
      table: this.outcomes.table,
      maxLinesPerInvocation: settings.ingestMaxLinesPerInvocation,
      jobsTable: this.jobs.table,
      memorySize: settings.functionMemoryMb,
      metricsNamespace: settings.metricsNamespace,
      logRetention,
    });
  }

  /** The workflow that runs the ingest function once per uploaded batch file. */
  private addIngestWorkflow({ settings, logRetention }: StackInputs): IngestWorkflow {
    return new IngestWorkflow(this, "IngestWorkflow", {
      bucket: this.ingestBucket.bucket,
      prefix: settings.ingestPrefix,
      suffix: settings.ingestSuffix,
      ingest: this.ingest.function,
      logRetention,
    });
  }

  /** The function that writes a job's results once its last line has ended. */
  private addJobResultsFunction({
    settings,
    sources,
    projectRoot,
    logRetention,
  }: StackInputs): JobResultsFunction {
    return new JobResultsFunction(this, "JobResults", {
      entry: sources.resultsEntry ?? join(projectRoot, "functions", "results", "handler.ts"),
      projectRoot,
      jobsTable: this.jobs.table,
      bucket: this.ingestBucket.bucket,
      memorySize: settings.functionMemoryMb,
      metricsNamespace: settings.metricsNamespace,
      logRetention,
    });
  }

  /** "Decision Job Completed" events on the outcomes bus, from the jobs table's stream. */
  private addJobEvents({ sources, projectRoot, logRetention }: StackInputs): JobCompletedEvents {
    return new JobCompletedEvents(this, "JobEvents", {
      entry: sources.jobEventsEntry ?? join(projectRoot, "functions", "jobEvents", "handler.ts"),
      projectRoot,
      streamArn: this.jobs.streamArn,
      bus: this.outcomes.bus,
      logRetention,
    });
  }

  /** The scheduled check of the jobs in progress. */
  private addJobsMonitorFunction({
    settings,
    sources,
    projectRoot,
    logRetention,
  }: StackInputs): JobsMonitorFunction {
    return new JobsMonitorFunction(this, "JobsMonitor", {
      entry: sources.jobsMonitorEntry ?? join(projectRoot, "functions", "jobsMonitor", "handler.ts"),
      projectRoot,
      jobsTable: this.jobs.table,
      listIndexArn: this.jobs.listIndexArn,
      stallMinutes: settings.jobStallMinutes,
      metricsNamespace: settings.metricsNamespace,
      logRetention,
    });
  }

  /** The rule that puts incident events from the bus onto the interactive lane's queue. */
  private addIncidentRule(settings: InfraSettings): IncidentRule {
    const { workQueue } = this.lanes[INCIDENT_LANE];
    return new IncidentRule(this, "IncidentRule", {
      busName: settings.incidentEventBus,
      source: settings.incidentSource,
      detailType: settings.incidentDetailType,
      queue: workQueue.queue,
      deadLetterQueue: workQueue.deadLetterQueue,
    });
  }

  /** The pipeline's alarms (and their topic) over the queues, functions, endpoint and policies. */
  private addAlarms(settings: InfraSettings): PipelineAlarms {
    return new PipelineAlarms(this, "Alarms", {
      lanes: this.pipelineLanes(),
      undeliveredOutcomes: this.outcomes.undelivered,
      unwrittenJobResults: this.jobResults.unwritten,
      undeliveredJobEvents: this.jobEvents.undelivered,
      endpointAlarms: [
        this.decisionEndpoint.alarms.errorRate5xx,
        this.decisionEndpoint.alarms.modelErrorRate,
      ],
      endpointName: this.decisionEndpoint.physicalName,
      variantName: this.decisionEndpoint.variantName,
      ingestFunction: this.ingest.function,
      jobsMonitorFunction: this.jobsMonitor.function,
      jobStallMinutes: settings.jobStallMinutes,
      ingestWorkflow: this.ingestWorkflow.stateMachine,
      metricsNamespace: settings.metricsNamespace,
      policies: this.policies.map((policy) => policy.name),
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
  private addDashboard(): PipelineDashboard {
    return new PipelineDashboard(this, "Dashboard", {
      metrics: this.alarms.metrics,
      lanes: this.pipelineLanes(),
      ingestFunction: this.ingest.function,
      ingestWorkflow: this.ingestWorkflow.stateMachine,
    });
  }

  /**
   * The capacity controller over the decision endpoint and both lanes: each variant admits what its
   * smallest pool's instances admit; each lane's floor and groups are its capacity at minimum. Its
   * error alarm notifies the alarm topic; its row is added to the dashboard.
   */
  private addCapacityController({
    settings,
    sources,
    projectRoot,
    logRetention,
  }: StackInputs): CapacityController {
    const endpoint = this.decisionEndpoint;
    const controller = new CapacityController(this, "CapacityController", {
      entry:
        sources.capacityControllerEntry ?? join(projectRoot, "functions", "capacityController", "handler.ts"),
      projectRoot,
      endpointName: endpoint.endpointName,
      endpointArn: endpoint.endpointArn,
      endpointPhysicalName: endpoint.physicalName,
      ...(this.laneComponents !== undefined ? { components: this.laneComponents.lanes } : {}),
      requestsPerInstanceByVariant: {
        [endpoint.variantName]: Math.min(...endpoint.pools.map((pool) => pool.requestsPerInstance)),
      },
      interactiveReservePerInstance: settings.interactiveReservePerInstance,
      goals: {
        bulkSeconds: settings.bulkDrainGoalMinutes * 60,
        interactiveSeconds: settings.interactiveLatencyAlarmSeconds,
        millisecondsPerLine: settings.millisecondsPerLine,
        instanceStartSeconds: settings.instanceStartSeconds,
        maxInstances: settings.maxInstances,
      },
      lanes: perLane((lane) => ({
        queue: this.lanes[lane].workQueue.queue,
        eventSource: this.lanes[lane].decide.eventSource,
        capacity: this.lanes[lane].capacity,
      })),
      metricsNamespace: settings.metricsNamespace,
      logRetention,
    });
    const action = new SnsAction(this.alarms.topic);
    controller.errors.addAlarmAction(action);
    controller.errors.addOkAction(action);
    this.dashboard.dashboard.addWidgets(...controller.widgets());
    return controller;
  }

  /** The shadow step's dashboard row and alarm, when the candidate endpoint is deployed (none otherwise). */
  private addShadowMonitoring(settings: InfraSettings): ShadowMonitoring | undefined {
    if (this.shadowEndpoint === undefined) return undefined;
    return new ShadowMonitoring(this, "ShadowMonitoring", {
      metricsNamespace: settings.metricsNamespace,
      policies: this.policies.map((policy) => policy.name),
      endpointName: this.shadowEndpoint.endpointName,
      variantName: SHADOW_VARIANT_NAME,
      dashboard: this.dashboard.dashboard,
      alarmTopic: this.alarms.topic,
    });
  }

  /** The lanes as the alarms and the dashboard see them, in `LANES` order. */
  private pipelineLanes(): PipelineLane[] {
    return LANES.map((lane) => ({
      lane,
      queue: this.lanes[lane].workQueue.queue,
      deadLetterQueue: this.lanes[lane].workQueue.deadLetterQueue,
      decideFunction: this.lanes[lane].decide.function,
    }));
  }

  /** The review console: its page, its HTTP API and the API's function. */
  private addReviewConsole({ settings, projectRoot, logRetention }: StackInputs): ReviewConsole {
    return new ReviewConsole(this, "ReviewConsole", {
      entry: join(projectRoot, "functions", "reviewConsole", "handler.ts"),
      projectRoot,
      site: readConsoleSite(),
      table: this.outcomes.table,
      statusIndexArn: this.outcomes.statusIndexArn,
      policyNames: this.policies.map((policy) => policy.name),
      memorySize: settings.functionMemoryMb,
      logRetention,
    });
  }

  /** An incident rule whose events no policy maps would turn every incident into a `rejected` outcome. */
  private warnWhenNoPolicyMapsIncidents(settings: InfraSettings): void {
    const mapped = this.policies.some((policy) =>
      policy.events.some(
        (event) =>
          event.source === settings.incidentSource && event.detailType === settings.incidentDetailType,
      ),
    );
    if (!mapped) {
      Annotations.of(this.incidents).addWarningV2(
        "decisions:incidentEventsUnmapped",
        `no policy maps events of source "${settings.incidentSource}" and detail-type "${settings.incidentDetailType}" (knobs incidentSource, incidentDetailType): each such event would be recorded as rejected`,
      );
    }
  }

  private addOutputs(): void {
    const outputs: Record<string, { value: string; description: string }> = {
      InteractiveQueueUrl: {
        value: this.lanes.interactive.workQueue.queue.queueUrl,
        description:
          "the interactive lane (items someone waits on; the incident rule sends here): decisions submit --queue-url <this>",
      },
      InteractiveDeadLetterQueueUrl: {
        value: this.lanes.interactive.workQueue.deadLetterQueue.queueUrl,
        description: "dead-lettered work items of the interactive lane",
      },
      BulkQueueUrl: {
        value: this.lanes.bulk.workQueue.queue.queueUrl,
        description:
          "the bulk lane (batch jobs' lines; work nobody waits on item by item): decisions submit --queue-url <this>",
      },
      BulkDeadLetterQueueUrl: {
        value: this.lanes.bulk.workQueue.deadLetterQueue.queueUrl,
        description: "dead-lettered work items of the bulk lane",
      },
      DecisionEndpointName: {
        value: this.decisionEndpoint.endpointName,
        description: "the decision endpoint",
      },
      OutcomesTableName: {
        value: this.outcomes.table.tableName,
        description: "decisions outcomes --table <this>",
      },
      JobsTableName: {
        value: this.jobs.table.tableName,
        description: "decisions jobs list --table <this>",
      },
      OutcomesBusName: {
        value: this.outcomes.bus.eventBusName,
        description: "rules here receive every outcome",
      },
      IngestBucketName: {
        value: this.ingestBucket.bucket.bucketName,
        description: "upload JSONL batch files under the ingest prefix",
      },
      IngestWorkflowArn: {
        value: this.ingestWorkflow.stateMachine.stateMachineArn,
        description: "one execution per batch file",
      },
      AlarmTopicArn: { value: this.alarms.topic.topicArn, description: "subscribe to the pipeline's alarms" },
      DashboardName: { value: this.dashboard.dashboard.dashboardName, description: "CloudWatch dashboard" },
    };
    if (this.shadowEndpoint !== undefined) {
      outputs.ShadowEndpointName = {
        value: this.shadowEndpoint.endpointName,
        description: "the shadow step's candidate endpoint (policies' shadow sections ask it)",
      };
    }
    if (this.standardEndpoint !== undefined) {
      outputs.StandardEndpointName = {
        value: this.standardEndpoint.endpointName,
        description: "the standard text-generation endpoint",
      };
    }
    for (const [id, output] of Object.entries(outputs)) new CfnOutput(this, id, output);
  }

  /**
   * S3 bucket notifications are configured by a custom resource that CDK adds to the stack (a
   * singleton Lambda function); its findings are CDK's, acknowledged here with reasons.
   */
  private acknowledgeBucketNotificationsHandler(): void {
    for (const child of this.node.children) {
      if (!child.node.id.startsWith("BucketNotificationsHandler")) continue;
      Validations.of(child).acknowledge({
        id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
        reason:
          "CDK's bucket-notifications custom resource (runs at deploy only, to configure this stack's bucket) logs with the basic execution role.",
      });
    }
  }
}

/** What the stack's steps share, derived once from its props. */
interface StackInputs {
  settings: InfraSettings;
  sources: DecisionsSources;
  projectRoot: string;
  logRetention: RetentionDays;
  functionTimeout: Duration;
  batchingWindow: Duration;
  /** The model data URL with `{account}` and `{region}` resolved. */
  modelDataUrl: string;
}

function stackInputsOf({ settings, sources }: DecisionsStackProps): StackInputs {
  return {
    settings,
    sources,
    projectRoot: sources.projectRoot,
    logRetention: settings.logRetentionDays as RetentionDays,
    functionTimeout: Duration.seconds(settings.functionTimeoutSeconds),
    batchingWindow: Duration.seconds(settings.batchingWindowSeconds),
    modelDataUrl: resolvePlaceholders(settings.modelDataUrl),
  };
}

/** `lane`'s construct id of a part: `InteractiveWorkQueue`, `BulkDecide`. */
function laneId(lane: Lane, part: string): string {
  return `${lane.charAt(0).toUpperCase()}${lane.slice(1)}${part}`;
}

/** One value per lane, built in `LANES` order (the template's resource order). */
function perLane<T>(build: (lane: Lane) => T): Record<Lane, T> {
  return Object.fromEntries(LANES.map((lane) => [lane, build(lane)])) as Record<Lane, T>;
}

/** Replaces `{account}` and `{region}` with the deploying account and region. */
function resolvePlaceholders(uri: string): string {
  return uri.replaceAll("{account}", Aws.ACCOUNT_ID).replaceAll("{region}", Aws.REGION);
}
