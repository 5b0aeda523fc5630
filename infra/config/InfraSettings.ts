import type { Setting } from "../../contract/index.js";
import type { PinnedImage } from "./parsePinnedImage.js";

/**
 * Everything the CDK app is configured with, read once from the CDK context by
 * {@link readInfraSettings}. Constructs receive this object (or parts of it) and never read context.
 */
export interface InfraSettings {
  stackName: string;
  accelerator: "cpu" | "gpu";
  /** `s3://bucket/key` of the model.tar.gz; `{account}` and `{region}` are replaced at deploy. */
  modelDataUrl: string;
  cpuInstanceType: string;
  /** GPU instance types in the order SageMaker tries them (priority 1 first). */
  gpuInstancePools: readonly string[];
  cpuFallbackPool: boolean;
  instanceProvisionTimeoutSeconds: number;
  containerStartupTimeoutSeconds: number;
  modelDownloadTimeoutSeconds: number;
  /** SEMIF_THREADS, or `auto` for the adapter's default (available parallelism). */
  cpuThreads: number | "auto";
  gpuLayers: number;
  contextSize: number;
  /** Requests one GPU instance admits (1 running + the rest waiting). */
  gpuRequestsPerInstance: number;
  /** Requests one CPU instance admits (the CPU endpoint and the CPU fallback pool). */
  cpuRequestsPerInstance: number;
  /** `SEMIF_INTERACTIVE_RESERVE` of every instance: waiting places only interactive calls may take. */
  interactiveReservePerInstance: number;
  gpuRequestTimeoutSeconds: number;
  cpuRequestTimeoutSeconds: number;
  minInstances: number;
  maxInstances: number;
  /** The bulk lane's goal: a backlog drains within this many minutes (instances are bought for it). */
  bulkDrainGoalMinutes: number;
  /** Milliseconds one instance takes to decide a line: the stated assumption the capacity rule plans with. */
  millisecondsPerLine: number;
  /** Seconds from a scale-out to a new instance in service: the stated assumption the capacity rule plans with. */
  instanceStartSeconds: number;
  /** `shared`: one fleet, both lanes on every instance; `lanes-from-zero`: an inference component per lane, bulk from 0 copies. */
  layout: "shared" | "lanes-from-zero";
  /** With `lanes-from-zero`: CPU cores one copy of an inference component reserves (`NumberOfCpuCoresRequired`). */
  componentCpuCores: number;
  /** With `lanes-from-zero`: memory one copy reserves, in MiB (`MinMemoryRequiredInMb`). */
  componentMemoryMb: number;
  /** `dev`, or `production` (at least two instances, the table kept). */
  profile: "dev" | "production";
  /** `gzip`: `modelDataUrl` is a model.tar.gz; `none`: an S3 prefix SageMaker copies as is. */
  modelDataCompression: "gzip" | "none";
  /** ARN of the KMS key the model bucket is encrypted with; undefined for SSE-S3. */
  modelKmsKeyArn: string | undefined;
  /** How long each step of a blue/green endpoint update bakes before the next (alarms watched). */
  deploymentBakeSeconds: number;
  maxConcurrentGroups: number;
  batchSize: number;
  batchingWindowSeconds: number;
  functionTimeoutSeconds: number;
  functionMemoryMb: number;
  maxReceiveCount: number;
  maxMessageBytes: number;
  queueRetentionDays: number;
  ingestPrefix: string;
  ingestSuffix: string;
  ingestMaxLinesPerInvocation: number;
  incidentEventBus: string;
  incidentSource: string;
  incidentDetailType: string;
  outcomesBusName: string;
  outcomesRemovalPolicy: "retain" | "destroy";
  fallbackRateAlarmPercent: number;
  fallbackRateAlarmMinDecisions: number;
  endpoint5xxAlarmPercent: number;
  endpointAlarmMinInvocations: number;
  /** The interactive lane's oldest-message alarm, in seconds. */
  oldestMessageAlarmSeconds: number;
  /** The bulk lane's oldest-message alarm, in seconds (below the queue's retention). */
  bulkOldestMessageAlarmSeconds: number;
  /** The interactive lane's latency alarm: p95 of send → outcome, in seconds. */
  interactiveLatencyAlarmSeconds: number;
  /** `JOB_STALL_MINUTES` of the jobs monitor: a job not final and unchanged this long alarms. */
  jobStallMinutes: number;
  /** `DRIFT_THRESHOLD` of the drift monitor and its alarm's threshold (bits). */
  driftAlarmThreshold: number;
  /** Where alarm notifications are e-mailed; undefined for none. */
  alarmEmail: string | undefined;
  logRetentionDays: number;
  metricsNamespace: string;
  standardEndpoint: boolean;
  /** The standard endpoint's image, parsed; undefined when none is given. */
  standardImage: PinnedImage | undefined;
  standardInstanceType: string;
  /** `s3://` model.tar.gz of the standard endpoint; empty for the decision endpoint's. */
  standardModelDataUrl: string;
  /**
   * Hub repository (`<owner>/<name>`) the standard endpoint's container downloads its GGUF from
   * (`SM_LLAMA_CPP_HF_REPO`); empty: it loads S3 model data.
   */
  standardHfRepo: string;
  /** The GGUF file of {@link standardHfRepo} (`SM_LLAMA_CPP_HF_FILE`); empty with it. */
  standardHfFile: string;
  /** The candidate model of the shadow step (`ShadowEndpoint`); empty: no candidate endpoint. */
  shadowModelDataUrl: string;
  /** The candidate endpoint's instance type; empty: the decision endpoint's first. */
  shadowInstanceType: string;
}

/** A JSON value as it can appear in `cdk.json`. */
export type ContextValue = string | number | boolean | readonly string[];

/** One context knob: its name (the context key), its default and what it does. */
export interface InfraKnob {
  name: keyof InfraSettings;
  /** The default, as written in `cdk.json`. */
  defaultValue: ContextValue;
  description: string;
  /** The environment variable of a function or of the adapter this knob sets, if it sets one. */
  variable?: string;
  /** The settings kit's entry of that variable, whose parser the knob uses. */
  setting?: Setting<unknown>;
}
