import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  ComparisonOperator,
  GraphWidget,
  type IWidget,
  Metric,
  Stats,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import {
  CAPACITY_CONTROLLER_SETTINGS,
  CAPACITY_METRIC_DIMENSIONS,
  CAPACITY_METRICS,
  LANES,
  type Lane,
  variableOf,
} from "../../contract/index.js";
import type { LaneCapacity } from "../capacity/deriveDecideCapacity.js";
import { CAPACITY_CHECK_SECONDS } from "../capacity/deriveScalingTimes.js";
import { PipelineFunction } from "./PipelineFunction.js";

/** `POWERTOOLS_SERVICE_NAME` of the capacity controller: the `service` dimension of its metrics. */
export const CAPACITY_CONTROLLER_SERVICE = "capacity-controller";

/**
 * How often the controller checks: EventBridge's shortest rate
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html), and
 * the period of the standard-resolution metric the goal scaling policy reads.
 */
export const CAPACITY_CONTROLLER_INTERVAL = Duration.minutes(CAPACITY_CHECK_SECONDS / 60);

/** One lane as the controller sees it. */
export interface CapacityControllerLane {
  queue: IQueue;
  /** The decide function's SQS event source (bound: its mapping's UUID and ARN are known). */
  eventSource: SqsEventSource;
  /** The lane's capacity at minimum (`deriveDecideCapacity`): its floor and groups per invocation. */
  capacity: LaneCapacity;
}

/** The lanes' goals and the stated assumptions the capacity rule plans with. */
export interface CapacityGoals {
  /** `bulkDrainGoalMinutes` in seconds. */
  bulkSeconds: number;
  /** The interactive latency goal (`interactiveLatencyAlarmSeconds`). */
  interactiveSeconds: number;
  millisecondsPerLine: number;
  instanceStartSeconds: number;
  maxInstances: number;
}

/** Props of {@link CapacityController}. */
export interface CapacityControllerProps {
  /** `functions/capacityController/handler.ts`. */
  entry: string;
  projectRoot: string;
  /** The decision endpoint's name (an attribute) and ARN. */
  endpointName: string;
  endpointArn: string;
  /** The endpoint's name as a literal: the `endpoint` dimension of the dashboard's metrics. */
  endpointPhysicalName: string;
  /**
   * `layout=lanes-from-zero`: each lane's inference component; the controller reads their copies
   * (`DescribeInferenceComponent`) instead of the endpoint's instances. Default none.
   */
  components?: Readonly<Record<Lane, { name: string; arn: string }>>;
  /** Requests one instance of each production variant admits (its smallest pool's), by variant. */
  requestsPerInstanceByVariant: Readonly<Record<string, number>>;
  /** `SEMIF_INTERACTIVE_RESERVE` of the endpoint's instances. */
  interactiveReservePerInstance: number;
  /** What the capacity rule (`planGoalCapacity`) plans with: the lanes' goals and the stated assumptions. */
  goals: CapacityGoals;
  lanes: Readonly<Record<Lane, CapacityControllerLane>>;
  metricsNamespace: string;
  logRetention: RetentionDays;
}

/**
 * The capacity controller (`functions/capacityController/handler.ts`), run by an EventBridge
 * schedule every {@link CAPACITY_CONTROLLER_INTERVAL}: it reads the decision endpoint's instance
 * counts and both lanes' queues, publishes `GoalCapacityRatio` (which the endpoint's goal scaling
 * policy tracks; `planGoalCapacity`) and `BacklogPerInstance`, and sets each lane's event source `MaximumConcurrency` to what the
 * instances in service admit. It may describe that endpoint, read those two queues' attributes and
 * read and update those two event source mappings (with `components`: also describe those two
 * inference components, whose copies it then reads instead of the endpoint's instances, publishing
 * a `GoalCapacityRatio` per component), nothing else. A check that fails is not retried
 * (the next comes a minute later); {@link errors} alarms when checks keep failing.
 */
export class CapacityController extends Construct {
  readonly function: IFunction;
  readonly schedule: Rule;
  /** The controller failed checks in 5 consecutive minutes: the lanes' concurrency is not following the endpoint. */
  readonly errors: Alarm;
  readonly #namespace: string;
  readonly #endpointName: string;
  readonly #componentNames: readonly string[] | undefined;

  constructor(scope: Construct, id: string, props: CapacityControllerProps) {
    super(scope, id);
    this.#namespace = props.metricsNamespace;
    this.#endpointName = props.endpointPhysicalName;
    const { components } = props;
    this.#componentNames = components === undefined ? undefined : LANES.map((lane) => components[lane].name);
    const settings = CAPACITY_CONTROLLER_SETTINGS;
    const { interactive, bulk } = props.lanes;
    const fn = new PipelineFunction(this, "Handler", {
      entry: props.entry,
      projectRoot: props.projectRoot,
      timeout: Duration.seconds(30),
      memorySize: 256,
      logRetention: props.logRetention,
      description:
        "Each minute: the decision endpoint's instances and the lanes' backlog; publishes GoalCapacityRatio (instances the lanes' goals want ÷ in service) and sets each lane's event source concurrency to what the endpoint admits",
      environment: {
        [variableOf(settings.endpointName)]: props.endpointName,
        [variableOf(settings.variantRequests)]: Object.entries(props.requestsPerInstanceByVariant)
          .map(([variant, requests]) => `${variant}=${requests}`)
          .join(","),
        [variableOf(settings.interactiveReserve)]: String(props.interactiveReservePerInstance),
        [variableOf(settings.interactiveQueueUrl)]: interactive.queue.queueUrl,
        [variableOf(settings.bulkQueueUrl)]: bulk.queue.queueUrl,
        [variableOf(settings.interactiveEventSource)]: interactive.eventSource.eventSourceMappingId,
        [variableOf(settings.bulkEventSource)]: bulk.eventSource.eventSourceMappingId,
        [variableOf(settings.interactiveGroups)]: String(interactive.capacity.groupsPerInvocation),
        [variableOf(settings.bulkGroups)]: String(bulk.capacity.groupsPerInvocation),
        [variableOf(settings.interactiveMinConcurrency)]: String(interactive.capacity.maxConcurrency),
        [variableOf(settings.bulkMinConcurrency)]: String(bulk.capacity.maxConcurrency),
        [variableOf(settings.bulkGoalSeconds)]: String(props.goals.bulkSeconds),
        [variableOf(settings.interactiveGoalSeconds)]: String(props.goals.interactiveSeconds),
        [variableOf(settings.millisecondsPerLine)]: String(props.goals.millisecondsPerLine),
        [variableOf(settings.instanceStartSeconds)]: String(props.goals.instanceStartSeconds),
        [variableOf(settings.maxInstances)]: String(props.goals.maxInstances),
        ...(props.components === undefined
          ? {}
          : {
              [variableOf(settings.interactiveComponent)]: props.components.interactive.name,
              [variableOf(settings.bulkComponent)]: props.components.bulk.name,
            }),
        POWERTOOLS_SERVICE_NAME: CAPACITY_CONTROLLER_SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
    });
    this.function = fn.function;
    fn.role.addToPolicy(
      new PolicyStatement({ actions: ["sagemaker:DescribeEndpoint"], resources: [props.endpointArn] }),
    );
    if (props.components !== undefined) {
      const { components } = props;
      fn.role.addToPolicy(
        new PolicyStatement({
          actions: ["sagemaker:DescribeInferenceComponent"],
          resources: LANES.map((lane) => components[lane].arn),
        }),
      );
    }
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ["sqs:GetQueueAttributes"],
        resources: LANES.map((lane) => props.lanes[lane].queue.queueArn),
      }),
    );
    fn.role.addToPolicy(
      new PolicyStatement({
        actions: ["lambda:GetEventSourceMapping", "lambda:UpdateEventSourceMapping"],
        resources: LANES.map((lane) => props.lanes[lane].eventSource.eventSourceMappingArn),
      }),
    );
    this.schedule = new Rule(this, "Schedule", {
      description: "Runs the capacity controller",
      schedule: Schedule.rate(CAPACITY_CONTROLLER_INTERVAL),
      targets: [new LambdaFunction(fn.function, { retryAttempts: 0 })],
    });
    this.errors = new Alarm(this, "Errors", {
      metric: fn.function.metricErrors({ period: CAPACITY_CONTROLLER_INTERVAL, statistic: Stats.SUM }),
      threshold: 1,
      evaluationPeriods: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
      alarmDescription:
        "The capacity controller failed (or did not run) in 5 consecutive minutes: the lanes' event source concurrency no longer follows the endpoint's instances, and GoalCapacityRatio may be missing (no scaling for the lanes' goals). Its log names the step that failed (endpoint, queue or event source; usually a permission).",
    });
  }

  /** One of the controller's metrics ({@link CAPACITY_METRICS}), averaged per minute. */
  metric(name: string, dimensions: Record<string, string>, label: string): Metric {
    return new Metric({
      namespace: this.#namespace,
      metricName: name,
      dimensionsMap: { service: CAPACITY_CONTROLLER_SERVICE, ...dimensions },
      statistic: Stats.AVERAGE,
      period: CAPACITY_CONTROLLER_INTERVAL,
      label,
    });
  }

  /** The dashboard's row: instances and backlog per instance; each lane's backlog and concurrency. */
  widgets(): IWidget[] {
    const endpoint = { [CAPACITY_METRIC_DIMENSIONS.endpoint]: this.#endpointName };
    const lane = (value: Lane) => ({ [CAPACITY_METRIC_DIMENSIONS.lane]: value });
    return [
      new GraphWidget({
        title: "Capacity: instances in service and wanted for the goals; bulk backlog per instance",
        left: [
          this.metric(CAPACITY_METRICS.inServiceInstances, endpoint, "InService instances"),
          // With a component per lane the goals are planned per component, in copies.
          ...(this.#componentNames === undefined
            ? [this.metric(CAPACITY_METRICS.goalInstances, endpoint, "instances the goals want")]
            : this.#componentNames.map((name) =>
                this.metric(
                  CAPACITY_METRICS.goalInstances,
                  { [CAPACITY_METRIC_DIMENSIONS.component]: name },
                  `copies ${name} wants`,
                ),
              )),
        ],
        right: [this.metric(CAPACITY_METRICS.backlogPerInstance, endpoint, "bulk messages per instance")],
        width: 12,
      }),
      new GraphWidget({
        title: "Capacity: each lane's event source concurrency and backlog",
        left: LANES.map((value) =>
          this.metric(CAPACITY_METRICS.laneConcurrency, lane(value), `${value} concurrency`),
        ),
        right: LANES.map((value) =>
          this.metric(CAPACITY_METRICS.queueBacklog, lane(value), `${value} visible messages`),
        ),
        width: 12,
      }),
    ];
  }
}
