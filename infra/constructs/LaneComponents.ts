import { Aws, Duration, Stack } from "aws-cdk-lib";
import { CfnScalableTarget, CfnScalingPolicy } from "aws-cdk-lib/aws-applicationautoscaling";
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { CfnInferenceComponent } from "aws-cdk-lib/aws-sagemaker";
import { Construct } from "constructs";
import { CAPACITY_METRIC_DIMENSIONS, LANES, type Lane } from "../../contract/index.js";
import { NO_CAPACITY_ALARM_PERIOD_SECONDS } from "../capacity/deriveScalingTimes.js";
import type { DecisionEndpoint } from "./DecisionEndpoint.js";
import { type GoalScaling, goalTrackingConfiguration } from "./goalTracking.js";
import { sageMakerNameOf } from "./sageMakerName.js";

/** What one copy of the decision model reserves on an instance. */
export interface ComponentCopyResources {
  /** `NumberOfCpuCoresRequired` of one copy. */
  cpuCores: number;
  /** `MinMemoryRequiredInMb` of one copy, in MiB. */
  memoryMb: number;
  /** `NumberOfAcceleratorDevicesRequired` of one copy (GPU instances); none on CPU. */
  acceleratorDevices?: number;
}

/** Props of {@link LaneComponents}. */
export interface LaneComponentsProps {
  /** The endpoint built with `layout: "lanes-from-zero"`: the components run its primary model. */
  endpoint: DecisionEndpoint;
  copy: ComponentCopyResources;
  /** The interactive component's floor of copies (`minInstances`; 0: none between calls). */
  interactiveMinCopies: number;
  /** Each component's most copies (`maxInstances`). */
  maxCopies: number;
  containerStartupTimeout: Duration;
  modelDownloadTimeout: Duration;
  /**
   * The goal scaling policies: target tracking of the capacity controller's `GoalCapacityRatio` at
   * 1, published per component (`service` = `service`, `component` = the component's name).
   */
  goalScaling: GoalScaling;
}

/** One lane's inference component and how it scales. */
export interface LaneComponent {
  readonly component: CfnInferenceComponent;
  /** The component's name, in lower case (what decide sends as `InferenceComponentName`). */
  readonly name: string;
  /** `arn:…:inference-component/<name>`. */
  readonly arn: string;
  /** Its copies (`sagemaker:inference-component:DesiredCopyCount`) as a scalable target. */
  readonly scalableTarget: CfnScalableTarget;
  /** Target tracking on the controller's `GoalCapacityRatio` of this component. */
  readonly goalScalingPolicy: CfnScalingPolicy;
  /** With a floor of 0 copies: the step scaling policy that adds a copy when calls find none. */
  readonly fromZeroPolicy: CfnScalingPolicy | undefined;
  /** With a floor of 0 copies: `NoCapacityInvocationFailures` ≥ 1 in a minute, which runs {@link fromZeroPolicy}. */
  readonly noCapacityAlarm: Alarm | undefined;
}

/**
 * One SageMaker inference component per lane on the decision endpoint (`layout=lanes-from-zero`):
 * each lane's calls have copies of their own (`InferenceComponentName`), so a bulk job never takes
 * an interactive call's place. Each copy reserves `copy` (cores, memory) of an instance; both run
 * the endpoint's model. The interactive component keeps `interactiveMinCopies`; the bulk component
 * is created with 0 copies (`CopyCount`'s valid range starts at 0:
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_InferenceComponentRuntimeConfig.html)
 * and goes back to 0 between jobs.
 *
 * Scaling, per component (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html):
 * - its `DesiredCopyCount` is a scalable target (`inference-component/<name>`), from its floor to
 *   `maxCopies`;
 * - target tracking on the capacity controller's `GoalCapacityRatio` of the component at 1 (the
 *   copies the lane's backlog and goal want ÷ the copies in service), as the shared layout's
 *   instances;
 * - with a floor of 0: a step scaling policy (+1 copy, `ChangeInCapacity`, aggregated by
 *   `Maximum`) run by an alarm on `NoCapacityInvocationFailures` of the component (Sum ≥ 1 in one
 *   60-second period; AWS's example alarms on `> 1`, which would wait for a second failed call).
 *   Target tracking cannot leave 0 copies; SageMaker emits that metric when a
 *   call reaches a component with no copy, which is what the decide function's first call does
 *   (it re-queues the line as busy and comes back).
 * SageMaker's managed instance scaling adds the instances the copies need and removes those left
 * without one.
 */
export class LaneComponents extends Construct {
  readonly lanes: Readonly<Record<Lane, LaneComponent>>;

  constructor(scope: Construct, id: string, props: LaneComponentsProps) {
    super(scope, id);
    const floors: Record<Lane, number> = { interactive: props.interactiveMinCopies, bulk: 0 };
    this.lanes = Object.fromEntries(
      LANES.map((lane) => [lane, this.addLane(props, lane, floors[lane])]),
    ) as Record<Lane, LaneComponent>;
  }

  private addLane(props: LaneComponentsProps, lane: Lane, floor: number): LaneComponent {
    const stack = Stack.of(this);
    const { endpoint } = props;
    const prefix = lane.charAt(0).toUpperCase() + lane.slice(1);
    // The endpoint's fingerprint keeps the name new when the endpoint is renamed (new hardware):
    // CloudFormation creates the new component before it deletes the old one.
    const name = sageMakerNameOf(stack.stackName, `${endpoint.fingerprint}-${lane}`);
    const component = new CfnInferenceComponent(this, `${prefix}Component`, {
      inferenceComponentName: name,
      endpointName: endpoint.endpointName,
      variantName: endpoint.variantName,
      specification: {
        modelName: endpoint.primaryModel.attrModelName,
        computeResourceRequirements: {
          numberOfCpuCoresRequired: props.copy.cpuCores,
          minMemoryRequiredInMb: props.copy.memoryMb,
          ...(props.copy.acceleratorDevices === undefined
            ? {}
            : { numberOfAcceleratorDevicesRequired: props.copy.acceleratorDevices }),
        },
        startupParameters: {
          containerStartupHealthCheckTimeoutInSeconds: props.containerStartupTimeout.toSeconds(),
          modelDataDownloadTimeoutInSeconds: props.modelDownloadTimeout.toSeconds(),
        },
      },
      runtimeConfig: { copyCount: floor },
    });
    const arn = stack.formatArn({
      service: "sagemaker",
      resource: "inference-component",
      resourceName: name,
    });
    const scalableTarget = new CfnScalableTarget(this, `${prefix}ScalableTarget`, {
      serviceNamespace: "sagemaker",
      scalableDimension: "sagemaker:inference-component:DesiredCopyCount",
      resourceId: `inference-component/${name}`,
      minCapacity: floor,
      maxCapacity: props.maxCopies,
    });
    // The target names the component by its literal name: it is registered once the component exists.
    scalableTarget.node.addDependency(component);
    const goalScalingPolicy = new CfnScalingPolicy(this, `${prefix}GoalScalingPolicy`, {
      policyName: `${Aws.STACK_NAME}-decision-goal-${lane}`,
      policyType: "TargetTrackingScaling",
      scalingTargetId: scalableTarget.ref,
      targetTrackingScalingPolicyConfiguration: goalTrackingConfiguration(props.goalScaling, {
        name: CAPACITY_METRIC_DIMENSIONS.component,
        value: name,
      }),
    });
    const fromZero = floor === 0 ? this.addFromZero(props, prefix, lane, name, scalableTarget) : undefined;
    return {
      component,
      name,
      arn,
      scalableTarget,
      goalScalingPolicy,
      fromZeroPolicy: fromZero?.policy,
      noCapacityAlarm: fromZero?.alarm,
    };
  }

  /** The step scaling policy that adds a copy to a component at 0, and the alarm that runs it. */
  private addFromZero(
    props: LaneComponentsProps,
    prefix: string,
    lane: Lane,
    name: string,
    scalableTarget: CfnScalableTarget,
  ): { policy: CfnScalingPolicy; alarm: Alarm } {
    const policy = new CfnScalingPolicy(this, `${prefix}FromZeroPolicy`, {
      policyName: `${Aws.STACK_NAME}-decision-from-zero-${lane}`,
      policyType: "StepScaling",
      scalingTargetId: scalableTarget.ref,
      stepScalingPolicyConfiguration: {
        adjustmentType: "ChangeInCapacity",
        metricAggregationType: "Maximum",
        // As the goal policy's scale-out: no second copy is asked for while the first still starts.
        cooldown: props.goalScaling.scaleOutCooldown.toSeconds(),
        stepAdjustments: [{ metricIntervalLowerBound: 0, scalingAdjustment: 1 }],
      },
    });
    const alarm = new Alarm(this, `${prefix}NoCapacity`, {
      alarmName: `${name}-no-capacity`,
      metric: new Metric({
        namespace: "AWS/SageMaker",
        metricName: "NoCapacityInvocationFailures",
        dimensionsMap: { InferenceComponentName: name },
        statistic: "Sum",
        period: Duration.seconds(NO_CAPACITY_ALARM_PERIOD_SECONDS),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `Calls reached the ${lane} inference component while it had no copy: adds a copy (step scaling from zero). Expected at the start of each ${lane} burst after idle; the lines are re-queued as busy meanwhile.`,
    });
    alarm.addAlarmAction({ bind: () => ({ alarmActionArn: policy.attrArn }) });
    return { policy, alarm };
  }
}
