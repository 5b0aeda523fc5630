import type { Node } from "constructs";
import {
  ADAPTER_DEADLINE_MARGIN_SECONDS,
  booleanSetting,
  DECIDE_SETTINGS,
  DRIFT_MONITOR_SETTINGS,
  INGEST_SETTINGS,
  integerSetting,
  JOB_RESULTS_PREFIX,
  JOBS_MONITOR_SETTINGS,
  MAX_ADAPTER_DEADLINE_SECONDS,
  oneOfSetting,
  parseSetting,
  patternSetting,
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS,
  SERVER_SETTING_ENTRIES,
  type Setting,
  variableOf,
} from "../../contract/index.js";
import { DecideCapacityError, deriveDecideCapacity } from "../capacity/deriveDecideCapacity.js";
import { InfraConfigError, type InfraConfigProblem } from "./errors.js";
import { ingestMatchesResults } from "./ingestMatchesResults.js";
import { type PinnedImage, parsePinnedImage } from "./parsePinnedImage.js";

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

interface KnobRule extends InfraKnob {
  /** Turns a context value (JSON from cdk.json, or a string from `-c`) into the setting. */
  parse(value: unknown): unknown;
}

/** Allowed `RetentionInDays` of CloudWatch log groups. */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const INSTANCE_TYPE = /^ml\.[a-z0-9-]+\.[a-z0-9]+$/;

/**
 * Default seconds per line, in milliseconds: 491.9 prompt tokens per line (measured through the
 * local pipeline, docs/benchmarks/2026-12-01-pipeline.md) at 1,575 tokens/s, the 196.9 measured on
 * 2 cores × 8 for the 16 physical cores of `ml.c6i.8xlarge` (the scaling is an assumption;
 * docs/sizing.md). The simulation's default request time is the same figure.
 */
const MILLISECONDS_PER_LINE = 312;

/**
 * Default instance start: AWS says provisioning "takes several minutes"
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html);
 * 6 minutes is this project's assumption (image pull, model download, load, `/ping`).
 */
const INSTANCE_START_SECONDS = 360;

/** Parses a knob's value with one of the settings kit's schemas. */
function kit<T>(schema: Setting<T>["schema"]): (value: unknown) => T {
  return (value) => parseSetting({ schema }, value);
}

const integer = (min: number, max: number) => kit(integerSetting(min, max));
const boolean = kit(booleanSetting);
const oneOf = <const T extends string>(...choices: T[]) => kit(oneOfSetting(choices));
const text = (pattern: RegExp, what: string) => kit(patternSetting(pattern, what));

/**
 * A knob that sets a variable of a function or of the adapter: parsed by that setting's own kit
 * entry, so the CDK app accepts exactly what the reader accepts; its default is the entry's unless
 * the app deploys another one (`defaultValue`).
 */
function setsVariable<T extends ContextValue>(
  name: keyof InfraSettings,
  setting: Setting<T>,
  description: string,
  defaultValue?: T,
): KnobRule {
  const fallback = setting.default;
  const value = defaultValue ?? ("value" in fallback ? fallback.value : undefined);
  if (value === undefined) throw new Error(`knob ${name}: ${variableOf(setting)} has no default to deploy`);
  return {
    name,
    defaultValue: value,
    description,
    variable: variableOf(setting),
    setting,
    parse: kit(setting.schema),
  };
}

function instanceType(value: unknown): string {
  return text(INSTANCE_TYPE, "a SageMaker instance type such as ml.c6i.8xlarge")(value);
}

function instanceTypes(value: unknown): string[] {
  const items =
    typeof value === "string"
      ? value.split(",").map((item) => item.trim())
      : Array.isArray(value)
        ? (value as unknown[])
        : undefined;
  if (items === undefined || items.length === 0) {
    throw new Error(
      `must be a list of instance types (a JSON array, or comma-separated), got ${JSON.stringify(value)}`,
    );
  }
  const types = items.map(instanceType);
  if (new Set(types).size !== types.length)
    throw new Error(`lists an instance type twice: ${types.join(", ")}`);
  return types;
}

function s3ModelUrl(value: unknown): string {
  return text(
    /^s3:\/\/[a-z0-9{}][a-z0-9.{}-]{1,254}\/\S+(?:\.tar\.gz|\/)$/,
    "an s3://bucket/key URI of a .tar.gz, or an s3://bucket/prefix/ ending in / with modelDataCompression=none ({account} and {region} may appear in it)",
  )(value);
}

function kmsKeyArn(value: unknown): string | undefined {
  if (value === "") return undefined;
  return text(
    /^arn:aws[a-z-]*:kms:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:key\/[0-9a-f-]{36}$/,
    "the ARN of a KMS key (arn:aws:kms:<region>:<account>:key/<id>), or empty",
  )(value);
}

const RULES: readonly KnobRule[] = [
  {
    name: "stackName",
    defaultValue: "Decisions",
    description: "name of the CloudFormation stack",
    parse: text(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, "a CloudFormation stack name"),
  },
  {
    name: "accelerator",
    defaultValue: "cpu",
    description:
      "`cpu`: the decision endpoint runs the CPU image on `cpuInstanceType`; `gpu`: the CUDA image on the `gpuInstancePools`",
    parse: oneOf("cpu", "gpu"),
  },
  {
    name: "modelDataUrl",
    defaultValue: "s3://decisions-models-{account}-{region}/model.tar.gz",
    description:
      "the `model.tar.gz` of `decisions models package` in S3 (with `modelDataCompression=none`: the S3 prefix, ending in `/`, holding the unpacked files); `{account}` and `{region}` are replaced by the deploying account and region",
    parse: s3ModelUrl,
  },
  {
    name: "modelDataCompression",
    defaultValue: "gzip",
    description:
      "`gzip`: `modelDataUrl` is a model.tar.gz, unpacked at every instance start; `none`: an S3 prefix whose files SageMaker copies as they are (no unpacking of a multi-GB GGUF)",
    parse: oneOf("gzip", "none"),
  },
  {
    name: "modelKmsKeyArn",
    defaultValue: "",
    description:
      "the KMS key the model bucket is encrypted with (SSE-KMS): the SageMaker role may decrypt with this key only, through S3; empty for SSE-S3",
    parse: kmsKeyArn,
  },
  {
    name: "cpuInstanceType",
    defaultValue: "ml.c6i.8xlarge",
    description: "instance type of the CPU endpoint, and of the last (CPU) pool with `accelerator=gpu`",
    parse: instanceType,
  },
  {
    name: "gpuInstancePools",
    defaultValue: ["ml.g6e.xlarge", "ml.g6.xlarge", "ml.g5.xlarge"],
    description:
      "GPU instance types in the order SageMaker tries them when capacity is short (priority 1 first); at most 5 pools in all",
    parse: instanceTypes,
  },
  {
    name: "cpuFallbackPool",
    defaultValue: true,
    description:
      "with `accelerator=gpu`, add `cpuInstanceType` as the last pool, running the CPU image (`modelNameOverride`), so the endpoint comes up when no GPU capacity exists",
    parse: boolean,
  },
  {
    name: "instanceProvisionTimeoutSeconds",
    defaultValue: 1800,
    description:
      "how long SageMaker may take to provision the variant's instances, in total across all pools (it moves to the next pool when one has no capacity, not on a quota error); SageMaker allows 300–3600",
    parse: integer(300, 3600),
  },
  {
    name: "containerStartupTimeoutSeconds",
    defaultValue: 1800,
    description: "time for the container to answer `/ping` after start (loading a multi-GB GGUF)",
    parse: integer(60, 3600),
  },
  {
    name: "modelDownloadTimeoutSeconds",
    defaultValue: 1800,
    description: "time to download and unpack the model.tar.gz onto an instance",
    parse: integer(60, 3600),
  },
  {
    name: "cpuThreads",
    defaultValue: "auto",
    description:
      "`SEMIF_THREADS` of the adapter (llama.cpp threads); `auto`: the instance's available parallelism",
    variable: variableOf(SERVER_SETTING_ENTRIES.threads),
    setting: SERVER_SETTING_ENTRIES.threads,
    parse: (value) => (value === "auto" ? "auto" : kit(SERVER_SETTING_ENTRIES.threads.schema)(value)),
  },
  setsVariable(
    "gpuLayers",
    SERVER_SETTING_ENTRIES.gpuLayers,
    "`SEMIF_GPU_LAYERS` of the GPU model: -1 all layers on the GPU, N that many (the CPU model always runs 0)",
    -1,
  ),
  setsVariable(
    "contextSize",
    SERVER_SETTING_ENTRIES.contextSize,
    "`SEMIF_CONTEXT_SIZE` of the adapter: no prompt may be longer, in tokens",
  ),
  {
    name: "gpuRequestsPerInstance",
    defaultValue: 9,
    description:
      "requests one GPU instance admits at once: 1 running (`SEMIF_MAX_IN_FLIGHT=1`) plus `SEMIF_QUEUE_DEPTH` = this − 1 waiting (GPU p95 ~0.6 s per decision)",
    parse: integer(1, 10_000),
  },
  {
    name: "cpuRequestsPerInstance",
    defaultValue: 4,
    description:
      "requests one CPU instance admits at once (the CPU endpoint, and the CPU fallback pool): 2 places for each lane at the defaults (`interactiveReservePerInstance` 2 for interactive, 4 − 2 for bulk; each lane's event source runs at least 2 invocations). With a CPU p95 of ~19 s per decision an interactive call, served first, waits at most for the call running and the one other interactive call (~57 s at p95, past the 55 s deadline: a call still waiting for its slot then is answered 503, busy, and re-queued)",
    parse: integer(1, 10_000),
  },
  setsVariable(
    "interactiveReservePerInstance",
    SERVER_SETTING_ENTRIES.interactiveReserve,
    "`SEMIF_INTERACTIVE_RESERVE` of the adapter: waiting places per instance only interactive calls may take; the interactive lane's decide function is sized to `minInstances` × this, the bulk lane's to the rest of what minimum capacity admits",
    2,
  ),
  {
    name: "gpuRequestTimeoutSeconds",
    defaultValue: 30,
    description: `\`SEMIF_REQUEST_TIMEOUT_MS\` of the GPU image: a request still unanswered then gets 504; at most ${MAX_ADAPTER_DEADLINE_SECONDS} (SageMaker's ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s invocation limit less a ${ADAPTER_DEADLINE_MARGIN_SECONDS} s margin for its own hop)`,
    parse: integer(1, MAX_ADAPTER_DEADLINE_SECONDS),
  },
  {
    name: "cpuRequestTimeoutSeconds",
    defaultValue: MAX_ADAPTER_DEADLINE_SECONDS,
    description: `\`SEMIF_REQUEST_TIMEOUT_MS\` of the CPU image; at most ${MAX_ADAPTER_DEADLINE_SECONDS}: SageMaker's own ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s invocation limit starts first, and past it the caller gets SageMaker's timeout instead of the adapter's 504, so the deadline keeps a ${ADAPTER_DEADLINE_MARGIN_SECONDS} s margin below it`,
    parse: integer(1, MAX_ADAPTER_DEADLINE_SECONDS),
  },
  {
    name: "minInstances",
    defaultValue: 1,
    description:
      "fewest endpoint instances (autoscaling floor; also the initial count); both lanes' decide functions are sized for it. With `layout=lanes-from-zero`: the interactive inference component's floor of copies (0: no interactive capacity between calls)",
    parse: integer(0, 100),
  },
  {
    name: "maxInstances",
    defaultValue: 2,
    description: "most endpoint instances (autoscaling ceiling)",
    parse: integer(1, 100),
  },
  {
    name: "bulkDrainGoalMinutes",
    defaultValue: 60,
    description:
      "the bulk lane's goal: a backlog drains within this many minutes. The capacity controller buys instances only for a backlog the instances in service would not drain within it, as many as the goal needs (`⌈(work − in service × goal) ÷ (goal − instanceStartSeconds − the scale-out reaction)⌉` more, up to `maxInstances`), and gives them back as the backlog ends ([docs/flow-control.md](../docs/flow-control.md#capacity-bought-for-a-goal))",
    parse: integer(5, 10_080),
  },
  {
    name: "millisecondsPerLine",
    defaultValue: MILLISECONDS_PER_LINE,
    description:
      "milliseconds one instance takes to decide a line: the stated assumption the capacity rule turns a backlog into work with. 312 is `ml.c6i.8xlarge` scaled from the 2-core measurement (docs/sizing.md, an estimate); measure yours with `decisions cost` (endpoint seconds per decision) or `decisions bench` on the instance type",
    parse: integer(1, 600_000),
  },
  {
    name: "instanceStartSeconds",
    defaultValue: INSTANCE_START_SECONDS,
    description:
      'seconds from a scale-out to a new instance in service (image pull, model download, load, `/ping`): the stated assumption the capacity rule plans with; the scale-out cooldown is this plus one minute, so that no cooldown ends while an instance it added still starts. AWS says "several minutes"; 360 is an assumption',
    parse: integer(60, 3600),
  },
  {
    name: "layout",
    defaultValue: "shared",
    description:
      "`shared`: one fleet of instances serves both lanes (the adapter keeps `interactiveReservePerInstance` places for interactive calls); `lanes-from-zero`: each lane gets capacity of its own as a SageMaker inference component, interactive copies with reserved cores and a floor of `minInstances` (0: none), bulk copies from 0, scaled out from zero on `NoCapacityInvocationFailures` ([docs/flow-control.md](../docs/flow-control.md#lanes-from-zero))",
    parse: oneOf("shared", "lanes-from-zero"),
  },
  {
    name: "componentCpuCores",
    defaultValue: 24,
    description:
      "with `layout=lanes-from-zero`: CPU cores one copy of a lane's inference component reserves (`NumberOfCpuCoresRequired`), also the adapter's `SEMIF_THREADS` when `cpuThreads` is `auto`. Size it so that one copy takes most of an instance (the capacity rule plans in copies of one instance's speed): 24 of the 32 vCPUs of `ml.c6i.8xlarge`, leaving the rest to SageMaker's own processes (an assumption: AWS does not state what it keeps)",
    parse: integer(1, 192),
  },
  {
    name: "componentMemoryMb",
    defaultValue: 49_152,
    description:
      "with `layout=lanes-from-zero`: memory one copy reserves, in MiB (`MinMemoryRequiredInMb`, at least 128): the model, its context and the adapter. 49152 MiB is 48 of the 64 GiB of `ml.c6i.8xlarge` (one copy per instance)",
    parse: integer(128, 2_097_152),
  },
  {
    name: "profile",
    defaultValue: "dev",
    description:
      "`production`: at least 2 instances (SageMaker spreads them over Availability Zones; `minInstances` 1 is raised to 2, `maxInstances` below 4 to 4) and the outcomes table must be retained; `dev`: as configured",
    parse: oneOf("dev", "production"),
  },
  {
    name: "deploymentBakeSeconds",
    defaultValue: 600,
    description:
      "blue/green endpoint updates: how long the new fleet takes traffic, watched by the endpoint's alarms, before the next step (any alarm rolls the update back)",
    parse: integer(0, 3600),
  },
  setsVariable(
    "maxConcurrentGroups",
    DECIDE_SETTINGS.maxConcurrentGroups,
    "`MAX_CONCURRENT_GROUPS` of the decide function: InvokeEndpoint calls one invocation has in flight",
  ),
  {
    name: "batchSize",
    defaultValue: 10,
    description:
      "most SQS messages per decide invocation of the bulk lane (more than 10 needs `batchingWindowSeconds` ≥ 1); the interactive lane takes at most its function's `MAX_CONCURRENT_GROUPS`, so no incident waits behind another in one invocation",
    parse: integer(1, 10_000),
  },
  {
    name: "batchingWindowSeconds",
    defaultValue: 1,
    description:
      "how long the event source gathers messages before invoking (larger batches, more shared groups)",
    parse: integer(0, 300),
  },
  {
    name: "functionTimeoutSeconds",
    defaultValue: 120,
    description:
      "timeout of the decide function; the work queue's visibility timeout is 6 × this + `batchingWindowSeconds`",
    parse: integer(75, 900),
  },
  {
    name: "functionMemoryMb",
    defaultValue: 1024,
    description: "memory of the decide and ingest functions (CPU share grows with it)",
    parse: integer(128, 10_240),
  },
  {
    name: "maxReceiveCount",
    defaultValue: 5,
    description:
      "receives of a message before SQS moves it to the DLQ (at least 5, so throttling alone never dead-letters)",
    parse: integer(5, 1000),
  },
  {
    name: "maxMessageBytes",
    defaultValue: 1_048_576,
    description: "largest work item (SQS message) in bytes; SQS allows up to 1 MiB",
    parse: integer(1024, 1_048_576),
  },
  {
    name: "queueRetentionDays",
    defaultValue: 4,
    description: "how long the work queue keeps a message (the DLQ keeps 14 days)",
    parse: integer(1, 14),
  },
  {
    name: "ingestPrefix",
    defaultValue: "incoming/",
    description: "key prefix of the ingest bucket whose new objects are ingested",
    parse: text(/^[^*?\s]*$/, "an S3 key prefix without wildcards"),
  },
  {
    name: "ingestSuffix",
    defaultValue: ".jsonl",
    description: "key suffix of ingested objects",
    parse: text(/^[^*?\s]*$/, "an S3 key suffix without wildcards"),
  },
  setsVariable(
    "ingestMaxLinesPerInvocation",
    INGEST_SETTINGS.maxLinesPerInvocation,
    "`MAX_LINES_PER_INVOCATION` of the ingest function: lines read before it checkpoints and continues",
    10_000,
  ),
  {
    name: "incidentEventBus",
    defaultValue: "default",
    description: "EventBridge bus whose incident events are turned into work items",
    parse: text(/^[A-Za-z0-9._\-/]{1,256}$/, "an event bus name"),
  },
  {
    name: "incidentSource",
    defaultValue: "acme.monitoring",
    description: "`source` of the incident events the rule matches (as in `policies/incident-priority.yaml`)",
    parse: text(/^\S{1,256}$/, "an event source"),
  },
  {
    name: "incidentDetailType",
    defaultValue: "Incident Opened",
    description: "`detail-type` of the incident events the rule matches",
    parse: text(/^.{1,128}$/, "a detail-type"),
  },
  {
    name: "outcomesBusName",
    defaultValue: "decisions-outcomes",
    description: "EventBridge bus the outcomes table's stream is published to (through a Pipe)",
    parse: text(/^[A-Za-z0-9._-]{1,256}$/, "an event bus name"),
  },
  {
    name: "outcomesRemovalPolicy",
    defaultValue: "retain",
    description: "what `cdk destroy` does with the outcomes table: `retain` it or `destroy` it",
    parse: oneOf("retain", "destroy"),
  },
  {
    name: "fallbackRateAlarmPercent",
    defaultValue: 20,
    description: "alarm when more than this percentage of decisions in 15 minutes end as `fallback`",
    parse: integer(1, 100),
  },
  {
    name: "fallbackRateAlarmMinDecisions",
    defaultValue: 20,
    description:
      "the fallback-rate alarm needs at least this many decisions of the policy in the 15 minutes (1 of 2 is 50%)",
    parse: integer(1, 1_000_000),
  },
  {
    name: "endpoint5xxAlarmPercent",
    defaultValue: 5,
    description:
      "alarm when more than this percentage of endpoint invocations in 5 minutes answer 5xx (503s of a busy instance included), in two consecutive periods",
    parse: integer(1, 100),
  },
  {
    name: "endpointAlarmMinInvocations",
    defaultValue: 20,
    description: "the endpoint's error-rate alarms need at least this many invocations in the 5 minutes",
    parse: integer(1, 1_000_000),
  },
  {
    name: "oldestMessageAlarmSeconds",
    defaultValue: 900,
    description: "alarm when the oldest work item of the interactive lane has waited longer than this",
    parse: integer(60, 1_209_600),
  },
  {
    name: "bulkOldestMessageAlarmSeconds",
    defaultValue: 86_400,
    description:
      "alarm when the oldest work item of the bulk lane has waited longer than this (a large batch job waits hours by design; SQS deletes a message older than `queueRetentionDays`, so this must stay below it)",
    parse: integer(60, 1_209_600),
  },
  {
    name: "interactiveLatencyAlarmSeconds",
    defaultValue: 60,
    description:
      "the interactive lane's latency goal: alarm when the p95 of its send → outcome time (metric `SendToOutcome`) is above this in two consecutive 5-minute periods, and the capacity rule buys instances for an interactive backlog the instances in service would not drain within it",
    parse: integer(1, 86_400),
  },
  setsVariable(
    "jobStallMinutes",
    JOBS_MONITOR_SETTINGS.stallMinutes,
    "`JOB_STALL_MINUTES` of the jobs monitor: a batch job not final whose record has not changed for this many minutes is stalled (the StalledJobs alarm)",
  ),
  setsVariable(
    "driftAlarmThreshold",
    DRIFT_MONITOR_SETTINGS.threshold,
    "`DRIFT_THRESHOLD` of the drift monitor: a policy's drift alarm fires when a question's distance (Jensen–Shannon, bits) is above this at an hourly check ([docs/drift.md](../docs/drift.md))",
  ),
  {
    name: "alarmEmail",
    defaultValue: "",
    description: "e-mail address subscribed to the alarm topic; empty for none",
    parse: (value) =>
      value === "" ? undefined : text(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "an e-mail address or empty")(value),
  },
  {
    name: "logRetentionDays",
    defaultValue: 30,
    description: "retention of the functions' log groups, in days",
    parse: (value) => {
      const days = integer(1, 3653)(value);
      if (!(LOG_RETENTION_DAYS as readonly number[]).includes(days))
        throw new Error(`must be one of ${LOG_RETENTION_DAYS.join(", ")}, got ${days}`);
      return days;
    },
  },
  {
    name: "metricsNamespace",
    defaultValue: "Decisions",
    description: "CloudWatch namespace of the functions' metrics (`POWERTOOLS_METRICS_NAMESPACE`)",
    parse: text(/^[A-Za-z0-9._/#:-]{1,255}$/, "a CloudWatch namespace"),
  },
  {
    name: "standardEndpoint",
    defaultValue: false,
    description: "also deploy the standard text-generation endpoint (the AWS llama.cpp image, OpenAI chat)",
    parse: boolean,
  },
  {
    name: "standardImage",
    defaultValue: "",
    description:
      "image of the standard endpoint, pinned by digest: `763104351884.dkr.ecr.<region>.amazonaws.com/llama-cpp@sha256:…`; a tag alone is refused",
    parse: (value) => {
      if (value === "") return undefined;
      if (typeof value !== "string")
        throw new Error(`must be an image reference, got ${JSON.stringify(value)}`);
      try {
        return parsePinnedImage(value);
      } catch (error) {
        throw new Error((error as Error).message, { cause: error });
      }
    },
  },
  {
    name: "standardInstanceType",
    defaultValue: "ml.c6i.8xlarge",
    description: "instance type of the standard endpoint",
    parse: instanceType,
  },
  {
    name: "standardModelDataUrl",
    defaultValue: "",
    description: "model.tar.gz of the standard endpoint; empty: the decision endpoint's `modelDataUrl`",
    parse: (value) => (value === "" ? "" : s3ModelUrl(value)),
  },
  {
    name: "standardHfRepo",
    defaultValue: "",
    description:
      "hub repository (`<owner>/<name>`) the standard endpoint's container downloads its GGUF from at every instance start (`SM_LLAMA_CPP_HF_REPO`, with `standardHfFile`), for parity with the llama.cpp image's own hub path; that endpoint then has no S3 model data and runs without network isolation: it needs outbound HTTPS to the hub (SageMaker's own network gives it; a private VPC would need a NAT), and it gets whatever the repository's file is at that start, unpinned. Empty: S3 model data (`standardModelDataUrl`). The decision endpoint always loads S3 model data",
    parse: (value) =>
      value === ""
        ? ""
        : text(
            /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/,
            "<owner>/<name> of a hub repository or empty",
          )(value),
  },
  {
    name: "standardHfFile",
    defaultValue: "",
    description:
      "the GGUF file of `standardHfRepo` the standard endpoint serves (`SM_LLAMA_CPP_HF_FILE`); empty with it",
    parse: (value) =>
      value === ""
        ? ""
        : text(/^[^\s"']+\.gguf$/, "the path of a .gguf file in the repository or empty")(value),
  },
  {
    name: "shadowModelDataUrl",
    defaultValue: "",
    description:
      "the candidate model (`model.tar.gz`, or an S3 prefix ending in `/` of unpacked files; `{account}` and `{region}` replaced) of a second, one-instance endpoint that policies' `shadow` sections ask (`SHADOW_ENDPOINT_NAME` of the decide functions, which may then invoke it); empty: none, nothing created",
    parse: (value) => (value === "" ? "" : s3ModelUrl(value)),
  },
  {
    name: "shadowInstanceType",
    defaultValue: "",
    description:
      "instance type of the candidate endpoint (with `shadowModelDataUrl`); empty: the decision endpoint's (`cpuInstanceType`, or the first of `gpuInstancePools`)",
    parse: (value) => (value === "" ? "" : instanceType(value)),
  },
];

/** Every context knob with its default and meaning (the README table and `cdk.json` list the same). */
export const INFRA_KNOBS: readonly InfraKnob[] = RULES.map(({ parse: _parse, ...knob }) => knob);

/** Context keys that look like ours (plain camelCase) but are none: a typo, refused. */
const OUR_KEY_SHAPE = /^[a-z][A-Za-z0-9]*$/;

/** Most instance pools a production variant may have (priorities 1–5). */
const MAX_POOLS = 5;

/**
 * Reads and validates the CDK context (`cdk.json` "context", overridden by `-c knob=value`) into
 * {@link InfraSettings}. Defaults are applied here and nowhere else. Numbers and booleans may be
 * given as strings (as `-c` gives them), lists as JSON arrays or comma-separated strings.
 *
 * @param node the app's node (`app.node`), whose context is read.
 * @throws {InfraConfigError} naming every invalid or unknown knob at once.
 */
export function readInfraSettings(node: Node): InfraSettings {
  const problems: InfraConfigProblem[] = [];
  const parsed: Partial<Record<keyof InfraSettings, unknown>> = {};
  for (const rule of RULES) {
    const raw: unknown = node.tryGetContext(rule.name) ?? rule.defaultValue;
    try {
      parsed[rule.name] = rule.parse(raw);
    } catch (error) {
      problems.push({ knob: rule.name, message: (error as Error).message });
    }
  }
  const known = new Set<string>(RULES.map((rule) => rule.name));
  for (const key of Object.keys(node.getAllContext())) {
    if (OUR_KEY_SHAPE.test(key) && !known.has(key)) {
      problems.push({ knob: key, message: "is not a knob of this app (see the README's table of knobs)" });
    }
  }
  if (problems.length > 0) throw new InfraConfigError(problems);

  const settings = applyProfile(parsed as InfraSettings);
  problems.push(...crossChecks(settings));
  if (problems.length > 0) throw new InfraConfigError(problems);
  return settings;
}

/** Fewest instances of the `production` profile: SageMaker places a variant's instances in several AZs. */
const PRODUCTION_MIN_INSTANCES = 2;
/** The autoscaling ceiling `production` raises a lower `maxInstances` to. */
const PRODUCTION_MAX_INSTANCES = 4;

/**
 * `profile=production` raises the instance bounds to at least {@link PRODUCTION_MIN_INSTANCES} and
 * {@link PRODUCTION_MAX_INSTANCES} (cdk.json lists every knob at its default, so a value cannot be
 * told apart from one given with `-c`: the profile raises, never lowers).
 */
function applyProfile(settings: InfraSettings): InfraSettings {
  if (settings.profile !== "production") return settings;
  return {
    ...settings,
    minInstances: Math.max(settings.minInstances, PRODUCTION_MIN_INSTANCES),
    maxInstances: Math.max(settings.maxInstances, PRODUCTION_MAX_INSTANCES),
  };
}

/**
 * SQS deletes a message older than the queue's `MessageRetentionPeriod`
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SetQueueAttributes.html):
 * an age alarm must come before that.
 */
const SECONDS_PER_DAY = 86_400;

/**
 * Both lanes must fit what the endpoint admits at minimum capacity (`deriveDecideCapacity`): the
 * problem names the knob to raise first — the reserve for the interactive lane, the smallest
 * pool's requests per instance for the bulk lane (the message names the others).
 */
function capacityProblems(settings: InfraSettings): InfraConfigProblem[] {
  // Each lane's component sizes its lane alone, down to the event source's floor
  // (`deriveComponentDecideCapacity`): nothing to refuse.
  if (settings.layout === "lanes-from-zero") return [];
  const pools =
    settings.accelerator === "cpu"
      ? [{ knob: "cpuRequestsPerInstance", requests: settings.cpuRequestsPerInstance }]
      : [
          { knob: "gpuRequestsPerInstance", requests: settings.gpuRequestsPerInstance },
          ...(settings.cpuFallbackPool
            ? [{ knob: "cpuRequestsPerInstance", requests: settings.cpuRequestsPerInstance }]
            : []),
        ];
  try {
    deriveDecideCapacity({
      minInstances: settings.minInstances,
      requestsPerInstanceByPool: pools.map((pool) => pool.requests),
      interactiveReservePerInstance: settings.interactiveReservePerInstance,
      configuredGroupsPerInvocation: settings.maxConcurrentGroups,
    });
    return [];
  } catch (error) {
    if (!(error instanceof DecideCapacityError)) throw error;
    const smallest = pools.reduce((least, pool) => (pool.requests < least.requests ? pool : least));
    const knob = error.lane === "interactive" ? "interactiveReservePerInstance" : smallest.knob;
    return [{ knob, message: error.message }];
  }
}

function crossChecks(settings: InfraSettings): InfraConfigProblem[] {
  const problems: InfraConfigProblem[] = [];
  const unpacked = settings.modelDataUrl.endsWith("/");
  if (unpacked !== (settings.modelDataCompression === "none")) {
    problems.push({
      knob: "modelDataUrl",
      message:
        settings.modelDataCompression === "none"
          ? `with modelDataCompression=none it must be an S3 prefix ending in / (the unpacked model files), got ${settings.modelDataUrl}`
          : `ends in / (an S3 prefix of unpacked files): set modelDataCompression=none, or give the model.tar.gz, got ${settings.modelDataUrl}`,
    });
  }
  if (settings.profile === "production" && settings.outcomesRemovalPolicy !== "retain") {
    problems.push({
      knob: "outcomesRemovalPolicy",
      message: "must be retain with profile=production (the outcomes are the pipeline's record)",
    });
  }
  if (
    settings.layout === "lanes-from-zero" &&
    settings.accelerator === "gpu" &&
    (settings.gpuInstancePools.length > 1 || settings.cpuFallbackPool)
  ) {
    problems.push({
      knob: "layout",
      message: `lanes-from-zero runs its inference components on one instance type: give gpuInstancePools one type and cpuFallbackPool=false (got ${settings.gpuInstancePools.join(", ")}${settings.cpuFallbackPool ? " and the CPU fallback pool" : ""}), or deploy with layout=shared`,
    });
  }
  if (settings.layout === "shared" && settings.minInstances < 1) {
    problems.push({
      knob: "minInstances",
      message:
        "must be at least 1 with layout=shared (a production variant keeps at least one instance; only inference components scale to zero: layout=lanes-from-zero)",
    });
  }
  if (settings.maxInstances < settings.minInstances) {
    problems.push({
      knob: "maxInstances",
      message: `must be at least minInstances (${settings.minInstances}), got ${settings.maxInstances}`,
    });
  }
  if (settings.batchSize > 10 && settings.batchingWindowSeconds < 1) {
    problems.push({
      knob: "batchSize",
      message: `more than 10 messages per batch needs batchingWindowSeconds ≥ 1 (SQS event sources), got batchSize ${settings.batchSize} with a window of 0`,
    });
  }
  const pools = settings.gpuInstancePools.length + (settings.cpuFallbackPool ? 1 : 0);
  if (settings.accelerator === "gpu" && pools > MAX_POOLS) {
    problems.push({
      knob: "gpuInstancePools",
      message: `a variant has at most ${MAX_POOLS} instance pools; ${settings.gpuInstancePools.length} GPU pools${settings.cpuFallbackPool ? " plus the CPU fallback pool" : ""} make ${pools}`,
    });
  }
  problems.push(...capacityProblems(settings));
  if (settings.bulkOldestMessageAlarmSeconds >= settings.queueRetentionDays * SECONDS_PER_DAY) {
    problems.push({
      knob: "bulkOldestMessageAlarmSeconds",
      message: `must be below the queues' retention (queueRetentionDays ${settings.queueRetentionDays} = ${settings.queueRetentionDays * SECONDS_PER_DAY} s): SQS deletes older messages, so the alarm would come after the loss, got ${settings.bulkOldestMessageAlarmSeconds}`,
    });
  }
  const loop = ingestMatchesResults(settings.ingestPrefix, settings.ingestSuffix);
  if (loop !== undefined) {
    problems.push({
      knob: "ingestPrefix",
      message: `with ingestPrefix ${JSON.stringify(settings.ingestPrefix)} and ingestSuffix ${JSON.stringify(settings.ingestSuffix)} the ingest rule would match the results writer's objects (e.g. ${loop}), so every job's results would be ingested as a new job, again and again; give an ingestPrefix outside ${JOB_RESULTS_PREFIX} (e.g. incoming/) or an ingestSuffix that results.jsonl and manifest.json do not end with`,
    });
  }
  if ((settings.standardHfRepo === "") !== (settings.standardHfFile === "")) {
    problems.push({
      knob: settings.standardHfRepo === "" ? "standardHfRepo" : "standardHfFile",
      message:
        "standardHfRepo and standardHfFile go together: give both (the repository and its .gguf file) or neither",
    });
  }
  if (settings.standardHfRepo !== "" && settings.standardModelDataUrl !== "") {
    problems.push({
      knob: "standardModelDataUrl",
      message:
        "names S3 model data while standardHfRepo names a hub repository: the standard endpoint loads one of them; leave standardModelDataUrl empty or standardHfRepo and standardHfFile empty",
    });
  }
  if (settings.standardEndpoint && settings.standardImage === undefined) {
    problems.push({
      knob: "standardImage",
      message:
        "is required with standardEndpoint=true: the AWS llama.cpp SageMaker image pinned by digest, 763104351884.dkr.ecr.<region>.amazonaws.com/llama-cpp@sha256:<digest>",
    });
  }
  return problems;
}
