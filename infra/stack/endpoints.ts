import { Duration } from "aws-cdk-lib";
import { deriveScalingTimes } from "../capacity/deriveScalingTimes.js";
import { CAPACITY_CONTROLLER_SERVICE } from "../constructs/CapacityController.js";
import { DecisionEndpoint } from "../constructs/DecisionEndpoint.js";
import { LaneComponents } from "../constructs/LaneComponents.js";
import { ShadowEndpoint } from "../constructs/ShadowEndpoint.js";
import { StandardEndpoint } from "../constructs/StandardEndpoint.js";
import { resolvePlaceholders, type StackHost, type StackInputs } from "./stackInputs.js";

/** The decision endpoint: the adapter images, their models and pools, scaling and alarms. */
export function addDecisionEndpoint(
  host: StackHost,
  { settings, projectRoot, modelDataUrl }: StackInputs,
): DecisionEndpoint {
  const scaling = deriveScalingTimes({ instanceStartSeconds: settings.instanceStartSeconds });
  return new DecisionEndpoint(host, "DecisionEndpoint", {
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
export function addLaneComponents(
  host: StackHost<"decisionEndpoint">,
  { settings }: StackInputs,
): LaneComponents | undefined {
  if (settings.layout !== "lanes-from-zero") return undefined;
  const scaling = deriveScalingTimes({ instanceStartSeconds: settings.instanceStartSeconds });
  return new LaneComponents(host, "LaneComponents", {
    endpoint: host.decisionEndpoint,
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
export function addStandardEndpoint(
  host: StackHost,
  { settings, modelDataUrl }: StackInputs,
): StandardEndpoint | undefined {
  return settings.standardEndpoint && settings.standardImage !== undefined
    ? new StandardEndpoint(host, "StandardEndpoint", {
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
export function addShadowEndpoint(
  host: StackHost,
  { settings, projectRoot }: StackInputs,
): ShadowEndpoint | undefined {
  if (settings.shadowModelDataUrl === "") return undefined;
  const gpu = settings.accelerator === "gpu";
  return new ShadowEndpoint(host, "ShadowEndpoint", {
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
