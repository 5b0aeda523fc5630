import { createHash } from "node:crypto";
import { Aws, Duration, Stack } from "aws-cdk-lib";
import { CfnScalableTarget, CfnScalingPolicy } from "aws-cdk-lib/aws-applicationautoscaling";
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { Role } from "aws-cdk-lib/aws-iam";
import { CfnEndpoint, CfnEndpointConfig, type CfnModel } from "aws-cdk-lib/aws-sagemaker";
import { Construct } from "constructs";
import {
  CAPACITY_METRIC_DIMENSIONS,
  LANES,
  SERVER_SETTING_ENTRIES,
  variableOf,
} from "../../contract/index.js";
import { adapterModel } from "./adapterModel.js";
import { type GoalScaling, goalTrackingConfiguration } from "./goalTracking.js";
import { modelDataOf } from "./modelDataOf.js";
import { sageMakerExecutionRole } from "./sageMakerExecutionRole.js";
import { sageMakerNameOf } from "./sageMakerName.js";
import { sageMakerVariantMetric } from "./sageMakerVariantMetric.js";

/** What one image (CPU or GPU) admits and how long it may take. */
export interface DecisionImageLimits {
  /** Requests one instance admits at once: 1 running plus the rest waiting (`SEMIF_QUEUE_DEPTH`). */
  requestsPerInstance: number;
  /** `SEMIF_REQUEST_TIMEOUT_MS`: a request still unanswered then gets 504. */
  requestTimeout: Duration;
}

/** Props of {@link DecisionEndpoint}. */
export interface DecisionEndpointProps {
  /** The repository root: the build context of `adapter/Dockerfile` and `adapter/Dockerfile.gpu`. */
  projectRoot: string;
  /** `cpu`: the CPU image on `cpuInstanceType`; `gpu`: the CUDA image on `gpuInstancePools`. */
  accelerator: "cpu" | "gpu";
  /** `s3://bucket/key` of the model.tar.gz, or `s3://bucket/prefix/` of unpacked files (tokens allowed). */
  modelDataUrl: string;
  /** The KMS key of the model bucket, when it uses SSE-KMS. */
  modelKmsKeyArn?: string | undefined;
  cpuInstanceType: string;
  /** GPU instance types, first tried first. */
  gpuInstancePools: readonly string[];
  /** With `gpu`: a last pool on `cpuInstanceType` running the CPU image. */
  cpuFallbackPool: boolean;
  /** Total time to provision the variant's instances, across all pools (300–3600 s). */
  instanceProvisionTimeout: Duration;
  containerStartupTimeout: Duration;
  modelDownloadTimeout: Duration;
  /** `SEMIF_THREADS`, or `auto` to leave the adapter's default. */
  cpuThreads: number | "auto";
  /** `SEMIF_GPU_LAYERS` of the GPU model. */
  gpuLayers: number;
  contextSize: number;
  /** Admission and deadline of the CPU image (the CPU endpoint, and the CPU fallback pool). */
  cpu: DecisionImageLimits;
  /** Admission and deadline of the GPU image. */
  gpu: DecisionImageLimits;
  /**
   * `SEMIF_INTERACTIVE_RESERVE` of both images: waiting places of each instance only interactive
   * calls may take. At most every pool's queue depth (requests per instance − 1).
   */
  interactiveReserve: number;
  minInstances: number;
  maxInstances: number;
  /**
   * The goal scaling policy: target tracking of `GoalCapacityRatio` at 1 (the instances the lanes'
   * goals want ÷ the instances in service, `planGoalCapacity`), published once a minute by the
   * capacity controller in `metricsNamespace` with the dimensions `service` = `service` and
   * `endpoint` = the endpoint's name; its cooldowns from `deriveScalingTimes`.
   */
  goalScaling: GoalScaling;
  /** Each blue/green step's baking time, the endpoint's alarms watching. */
  deploymentBake: Duration;
  /**
   * `shared` (default): one production variant whose instances serve both lanes, scaled by
   * {@link DecisionEndpoint.goalScalingPolicy}; `lanes-from-zero`: a variant for inference
   * components (`LaneComponents`), whose instances SageMaker's managed instance scaling adds and
   * removes as the components' copies need them, down to 0.
   */
  layout?: "shared" | "lanes-from-zero";
  /** The error-rate alarms (and blue/green rollback) wait for this many invocations in 5 minutes. */
  alarmMinInvocations: number;
  /** The 5xx-rate alarm's threshold, percent of invocations in 5 minutes. */
  alarm5xxPercent: number;
}

/** The one production variant's name (SageMaker's conventional name). */
export const DECISION_VARIANT_NAME = "AllTraffic";

/** One pool of the variant, in priority order. */
export interface DecisionInstancePool {
  instanceType: string;
  /** 1 is tried first. */
  priority: number;
  /** The image this pool runs. */
  image: "cpu" | "gpu";
  /** Requests one instance of this pool admits. */
  requestsPerInstance: number;
}

/** How long a blue/green update may take in all before SageMaker rolls it back. */
const DEPLOYMENT_TIMEOUT = Duration.hours(2);
/** The blue fleet is kept this long after the last shift, for a fast rollback. */
const BLUE_FLEET_TERMINATION_WAIT = Duration.minutes(5);

/**
 * The decision endpoint: the adapter image (a Docker image asset built at deploy from
 * `adapter/Dockerfile`, or `adapter/Dockerfile.gpu` with `accelerator: "gpu"`) serving the GGUF of
 * the model data in S3, network-isolated, with start-up and download timeouts sized for multi-GB
 * models. On GPU the variant is an ordered list of instance pools (`InstancePools` with priorities
 * and a provisioning timeout that bounds the whole attempt); a last CPU pool runs the CPU image
 * through `ModelNameOverride`, with its own (smaller) queue depth and longer deadline.
 *
 * Day-2 changes:
 * - The endpoint's name carries a fingerprint of its instance types. SageMaker refuses an
 *   `UpdateEndpoint` that changes a variant's instance type while a scalable target is registered
 *   for it; changing the accelerator, the CPU type or the pools therefore renames the endpoint:
 *   CloudFormation creates a new endpoint and a new scalable target on it, switches the decide
 *   function over, then deletes the old target and endpoint. No update ever changes an instance type.
 * - Every other change (image, model data, environment) is an `UpdateEndpoint` with a blue/green
 *   deployment: canary (half the capacity) when the fleet has two instances or more, all at once
 *   otherwise, each step baked while the endpoint's alarms watch; any alarm rolls back.
 *   `RetainAllVariantProperties` keeps the instance count autoscaling has set.
 *
 * The instance count scales between `minInstances` and `maxInstances` with one target-tracking
 * policy, on the capacity controller's `GoalCapacityRatio` (target 1): the instances the lanes'
 * goals want ÷ those in service (docs/flow-control.md, "Capacity bought for a goal"). There is no
 * policy on `ConcurrentRequestsPerModel`: the lanes' floors (each lane's event source keeps at least
 * 2 calls in flight) read as overload at any target below them, and Application Auto Scaling scales
 * out when any target-tracking policy asks.
 *
 * With `layout: "lanes-from-zero"` the endpoint hosts inference components instead (`LaneComponents`
 * runs {@link DecisionEndpoint.primaryModel} on it, one component per lane): the variant names no
 * model, SageMaker's managed instance scaling follows the components' copies down to 0 instances,
 * there is no variant scalable target, and the endpoint has no blue/green deployment of its own.
 */
export class DecisionEndpoint extends Construct {
  readonly endpoint: CfnEndpoint;
  readonly endpointConfig: CfnEndpointConfig;
  /** The endpoint's name, as an attribute (users of it wait for the endpoint). */
  readonly endpointName: string;
  /**
   * The endpoint's name as a literal, in lower case: `<stack>-decisions-<fingerprint of the instance
   * types>` (SageMaker's ARNs carry names in lower case: {@link sageMakerNameOf}).
   */
  readonly physicalName: string;
  /** `arn:…:endpoint/<name>`: the only endpoint the decide function may invoke. */
  readonly endpointArn: string;
  readonly variantName = DECISION_VARIANT_NAME;
  readonly minInstances: number;
  readonly maxInstances: number;
  /** The pools in priority order (one CPU pool when `accelerator` is `cpu`). */
  readonly pools: readonly DecisionInstancePool[];
  /** The variant's instance count as a scalable target; none with `lanes-from-zero` (the components' copies are). */
  readonly scalableTarget: CfnScalableTarget | undefined;
  /** Target tracking on `GoalCapacityRatio`: instances bought for the lanes' goals; none with `lanes-from-zero`. */
  readonly goalScalingPolicy: CfnScalingPolicy | undefined;
  /** The digest of the accelerator and the instance types that the endpoint's name ends with (8 hex). */
  readonly fingerprint: string;
  /** The model of the image the endpoint runs first (GPU before CPU): what inference components run. */
  readonly primaryModel: CfnModel;
  /** The alarms that roll a blue/green update back: 5xx rate and ModelError rate. */
  readonly alarms: { readonly errorRate5xx: Alarm; readonly modelErrorRate: Alarm };

  constructor(scope: Construct, id: string, props: DecisionEndpointProps) {
    super(scope, id);
    this.minInstances = props.minInstances;
    this.maxInstances = props.maxInstances;
    this.pools = instancePoolsOf(props);
    const stack = Stack.of(this);
    this.fingerprint = fingerprintOf(props.accelerator, this.pools);
    this.physicalName = sageMakerNameOf(stack.stackName, `decisions-${this.fingerprint}`);
    const { models, role } = this.addModels(props);
    this.primaryModel = (models.gpu ?? models.cpu) as CfnModel;
    const fromZero = props.layout === "lanes-from-zero";
    this.endpointConfig = fromZero
      ? this.addComponentEndpointConfig(props, role)
      : this.addEndpointConfig(props, models);
    this.alarms = this.endpointAlarms(props);
    this.endpoint = fromZero ? this.addComponentEndpoint() : this.addEndpoint(props);
    this.endpointName = this.endpoint.attrEndpointName;
    this.endpointArn = stack.formatArn({
      service: "sagemaker",
      resource: "endpoint",
      resourceName: this.endpointName,
    });
    this.scalableTarget = fromZero ? undefined : this.addScalableTarget(props);
    this.goalScalingPolicy =
      this.scalableTarget === undefined ? undefined : this.addGoalScalingPolicy(props, this.scalableTarget);
  }

  /** The execution role and one model per image the pools run (the GPU one first). */
  private addModels(props: DecisionEndpointProps): { models: DecisionModels; role: Role } {
    const needs = new Set(this.pools.map((pool) => pool.image));
    const modelData = modelDataOf(props.modelDataUrl);
    const role = sageMakerExecutionRole(this, "ExecutionRole", {
      models: [modelData],
      modelKmsKeyArn: props.modelKmsKeyArn,
    });
    const models: DecisionModels = {};
    for (const kind of ["gpu", "cpu"] as const) {
      if (!needs.has(kind)) continue;
      const model = adapterModel(this, {
        projectRoot: props.projectRoot,
        image: kind,
        modelId: kind === "cpu" ? "CpuModel" : "GpuModel",
        role,
        modelData,
        environment: adapterEnvironment(props, kind),
      });
      models[kind] = model;
    }
    return { models, role };
  }

  /** The endpoint configuration: the one production variant, on one instance type or on the pools. */
  private addEndpointConfig(props: DecisionEndpointProps, models: DecisionModels): CfnEndpointConfig {
    const primary = (models.gpu ?? models.cpu) as CfnModel;
    return new CfnEndpointConfig(this, "Config", {
      productionVariants: [
        {
          variantName: DECISION_VARIANT_NAME,
          modelName: primary.attrModelName,
          initialInstanceCount: props.minInstances,
          ...(props.accelerator === "cpu"
            ? { instanceType: props.cpuInstanceType }
            : {
                instancePools: this.pools.map((pool) => ({
                  instanceType: pool.instanceType,
                  priority: pool.priority,
                  ...(pool.image === "cpu" && models.cpu !== undefined
                    ? { modelNameOverride: models.cpu.attrModelName }
                    : {}),
                })),
                variantInstanceProvisionTimeoutInSeconds: props.instanceProvisionTimeout.toSeconds(),
              }),
          containerStartupHealthCheckTimeoutInSeconds: props.containerStartupTimeout.toSeconds(),
          modelDataDownloadTimeoutInSeconds: props.modelDownloadTimeout.toSeconds(),
          // Requests go to the instance with the fewest in flight: a slow CPU pool gets fewer.
          routingConfig: { routingStrategy: "LEAST_OUTSTANDING_REQUESTS" },
        },
      ],
    });
  }

  /**
   * The endpoint configuration of `lanes-from-zero`: a variant that names no model (the inference
   * components do), with the execution role SageMaker deploys the components' models with, and
   * managed instance scaling from 0 instances: an endpoint scales to and from zero instances only
   * when it hosts inference components and its variant's `ManagedInstanceScaling` has
   * `MinInstanceCount` 0 (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html;
   * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ProductionVariantManagedInstanceScaling.html;
   * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateEndpointConfig.html).
   * Each lane's component may grow to `maxInstances` copies of one instance each, so the variant may
   * hold twice `maxInstances` instances. Components run on one instance type: the CPU type, or the
   * first GPU pool (`readInfraSettings` refuses more pools with this layout).
   */
  private addComponentEndpointConfig(props: DecisionEndpointProps, role: Role): CfnEndpointConfig {
    const [pool] = this.pools;
    return new CfnEndpointConfig(this, "Config", {
      executionRoleArn: role.roleArn,
      productionVariants: [
        {
          variantName: DECISION_VARIANT_NAME,
          instanceType: pool?.instanceType ?? props.cpuInstanceType,
          // The endpoint is created with one instance; managed instance scaling removes it when no
          // component has a copy on it.
          initialInstanceCount: 1,
          managedInstanceScaling: {
            status: "ENABLED",
            minInstanceCount: 0,
            maxInstanceCount: LANES.length * props.maxInstances,
          },
          routingConfig: { routingStrategy: "LEAST_OUTSTANDING_REQUESTS" },
        },
      ],
    });
  }

  /**
   * The endpoint of `lanes-from-zero`. Its components are updated by CloudFormation one by one; the
   * endpoint's own blue/green deployment is for variants that run a model, so none is configured.
   */
  private addComponentEndpoint(): CfnEndpoint {
    return new CfnEndpoint(this, "Endpoint", {
      endpointName: this.physicalName,
      endpointConfigName: this.endpointConfig.attrEndpointConfigName,
    });
  }

  /** The endpoint, updated blue/green and rolled back by {@link DecisionEndpoint.alarms}. */
  private addEndpoint(props: DecisionEndpointProps): CfnEndpoint {
    return new CfnEndpoint(this, "Endpoint", {
      endpointName: this.physicalName,
      endpointConfigName: this.endpointConfig.attrEndpointConfigName,
      // Keep the instance count (and weight) that autoscaling set when the configuration changes.
      retainAllVariantProperties: true,
      deploymentConfig: {
        blueGreenUpdatePolicy: {
          trafficRoutingConfiguration:
            props.minInstances >= 2
              ? {
                  type: "CANARY",
                  canarySize: { type: "CAPACITY_PERCENT", value: 50 },
                  waitIntervalInSeconds: props.deploymentBake.toSeconds(),
                }
              : // A canary must be at most half the new fleet: one instance can only shift at once.
                { type: "ALL_AT_ONCE", waitIntervalInSeconds: props.deploymentBake.toSeconds() },
          terminationWaitInSeconds: BLUE_FLEET_TERMINATION_WAIT.toSeconds(),
          maximumExecutionTimeoutInSeconds: DEPLOYMENT_TIMEOUT.toSeconds(),
        },
        // Refs to the alarms: they exist before the endpoint (their metrics name the endpoint by its
        // literal name, so they do not depend on it).
        autoRollbackConfiguration: {
          alarms: [
            { alarmName: this.alarms.errorRate5xx.alarmName },
            { alarmName: this.alarms.modelErrorRate.alarmName },
          ],
        },
      },
    });
  }

  /**
   * The variant's instance count as a scalable target. The service-linked role of Application Auto
   * Scaling is used (no RoleARN): it is created on first use and may change only SageMaker variants.
   * The resource id holds the endpoint's name, so a renamed endpoint (an instance-type change) gets a
   * new target, and the old one goes with it.
   */
  private addScalableTarget(props: DecisionEndpointProps): CfnScalableTarget {
    return new CfnScalableTarget(this, "ScalableTarget", {
      serviceNamespace: "sagemaker",
      scalableDimension: "sagemaker:variant:DesiredInstanceCount",
      resourceId: `endpoint/${this.endpointName}/variant/${DECISION_VARIANT_NAME}`,
      minCapacity: props.minInstances,
      maxCapacity: props.maxInstances,
    });
  }

  /**
   * Target tracking on the capacity controller's `GoalCapacityRatio` at 1: the controller turns the
   * lanes' backlogs and goals into the instances wanted (`planGoalCapacity`) and publishes wanted ÷
   * in service (less half an instance), so target tracking's `⌈capacity × metric ÷ target⌉` is the
   * count wanted; 1 when the instances in service drain the backlogs within their goals (nothing
   * bought), 0 in the tail (the instances given back as it ends).
   */
  private addGoalScalingPolicy(
    props: DecisionEndpointProps,
    scalableTarget: CfnScalableTarget,
  ): CfnScalingPolicy {
    return new CfnScalingPolicy(this, "GoalScalingPolicy", {
      policyName: `${Aws.STACK_NAME}-decision-goal`,
      policyType: "TargetTrackingScaling",
      scalingTargetId: scalableTarget.ref,
      targetTrackingScalingPolicyConfiguration: goalTrackingConfiguration(props.goalScaling, {
        name: CAPACITY_METRIC_DIMENSIONS.endpoint,
        value: this.physicalName,
      }),
    });
  }

  /**
   * The 5xx rate and the ModelError rate of the endpoint, as a percentage of its invocations in 5
   * minutes, alarming only with at least `alarmMinInvocations` invocations (one failed call of
   * two is no outage). Named, so that the endpoint's rollback configuration can refer to them
   * without depending on the endpoint.
   */
  private endpointAlarms(props: DecisionEndpointProps): DecisionEndpoint["alarms"] {
    const period = Duration.minutes(5);
    const metric = (metricName: string) =>
      sageMakerVariantMetric(
        { endpointName: this.physicalName, variantName: DECISION_VARIANT_NAME },
        metricName,
        {
          statistic: "Sum",
          period,
        },
      );
    const rate = (errorsMetric: string, label: string) =>
      new MathExpression({
        // No data (no traffic) and too few invocations both give no data point: not breaching.
        expression: `IF(FILL(invocations, 0) >= ${props.alarmMinInvocations}, 100 * FILL(errors, 0) / invocations)`,
        usingMetrics: { invocations: metric("Invocations"), errors: metric(errorsMetric) },
        label,
        period,
      });
    const alarm = (
      id: string,
      name: string,
      expression: MathExpression,
      threshold: number,
      periods: number,
      description: string,
    ) =>
      new Alarm(this, id, {
        alarmName: `${this.physicalName}-${name}`,
        metric: expression,
        threshold,
        evaluationPeriods: periods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
    return {
      errorRate5xx: alarm(
        "Error5xxRate",
        "5xx-rate",
        rate("Invocation5XXErrors", "5xx (%)"),
        props.alarm5xxPercent,
        2,
        `More than ${props.alarm5xxPercent}% of the decision endpoint's invocations answered 5xx in two consecutive 5-minute periods (at least ${props.alarmMinInvocations} invocations each): instances failing, or a backlog beyond what the instances admit. Rolls back a blue/green update.`,
      ),
      modelErrorRate: alarm(
        "ModelErrorRate",
        "model-error-rate",
        rate("InvocationModelErrors", "ModelError (%)"),
        props.alarm5xxPercent,
        2,
        `More than ${props.alarm5xxPercent}% of the decision endpoint's invocations were ModelErrors (the adapter answered non-2xx) in two consecutive 5-minute periods. Rolls back a blue/green update.`,
      ),
    };
  }
}

/** The SageMaker model of each image the variant runs. */
type DecisionModels = Partial<Record<"cpu" | "gpu", CfnModel>>;

/**
 * The variant's pools in priority order: one CPU pool with `accelerator: "cpu"`; otherwise the GPU
 * pools, then the CPU fallback pool when asked for. Throws a `RangeError` when `interactiveReserve`
 * leaves a pool's instance no waiting place for other calls (the adapter would refuse to start).
 */
function instancePoolsOf(props: DecisionEndpointProps): DecisionInstancePool[] {
  const cpuPool = (priority: number): DecisionInstancePool => ({
    instanceType: props.cpuInstanceType,
    priority,
    image: "cpu",
    requestsPerInstance: props.cpu.requestsPerInstance,
  });
  const pools: DecisionInstancePool[] =
    props.accelerator === "cpu"
      ? [cpuPool(1)]
      : [
          ...props.gpuInstancePools.map((instanceType, index) => ({
            instanceType,
            priority: index + 1,
            image: "gpu" as const,
            requestsPerInstance: props.gpu.requestsPerInstance,
          })),
          ...(props.cpuFallbackPool ? [cpuPool(props.gpuInstancePools.length + 1)] : []),
        ];
  for (const pool of pools) {
    if (props.interactiveReserve > pool.requestsPerInstance - 1) {
      throw new RangeError(
        `DecisionEndpoint: interactiveReserve ${props.interactiveReserve} is more than the ${pool.requestsPerInstance - 1} waiting places of a ${pool.instanceType} instance (requests per instance ${pool.requestsPerInstance} − 1 running): the adapter would refuse to start; lower the reserve or raise the pool's requests per instance`,
      );
    }
  }
  return pools;
}

/**
 * 8 hex of a digest of the accelerator and the pools' instance types in priority order. The
 * endpoint's name is `<stack name, at most 40 characters>-decisions-<fingerprint>` in lower case:
 * SageMaker's pattern (letters, digits, hyphens, at most 63), the case of the ARN SageMaker forms,
 * and a new name exactly when the hardware changes.
 */
function fingerprintOf(accelerator: string, pools: readonly DecisionInstancePool[]): string {
  return createHash("sha256")
    .update(JSON.stringify([accelerator, ...pools.map((pool) => [pool.instanceType, pool.image])]))
    .digest("hex")
    .slice(0, 8);
}

/** The adapter's environment (its settings: `contract/settings/serverSettings.ts`) for one image. */
function adapterEnvironment(props: DecisionEndpointProps, kind: "cpu" | "gpu"): Record<string, string> {
  const limits = kind === "gpu" ? props.gpu : props.cpu;
  const adapter = SERVER_SETTING_ENTRIES;
  return {
    [variableOf(adapter.gpuLayers)]: kind === "gpu" ? String(props.gpuLayers) : "0",
    [variableOf(adapter.contextSize)]: String(props.contextSize),
    [variableOf(adapter.maxInFlight)]: "1",
    [variableOf(adapter.queueDepth)]: String(limits.requestsPerInstance - 1),
    // With a component per lane, every place of a copy is its lane's.
    [variableOf(adapter.interactiveReserve)]: String(
      props.layout === "lanes-from-zero" ? 0 : props.interactiveReserve,
    ),
    [variableOf(adapter.requestTimeoutMs)]: String(limits.requestTimeout.toMilliseconds()),
    ...(props.cpuThreads === "auto" ? {} : { [variableOf(adapter.threads)]: String(props.cpuThreads) }),
  };
}
