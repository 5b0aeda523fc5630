import { deriveScalingTimes } from "../infra/capacity/deriveScalingTimes.js";
import { INFRA_KNOBS } from "../infra/config/infraKnobs.js";
import { AWS_CONSTANTS } from "./awsConstants.js";
import { SimulationInputError } from "./errors.js";

/** How the pipeline's calls in flight and the endpoint's instances are sized. */
export type CapacityMode = "fixed" | "follow";

/** How the lanes share the endpoint's capacity (the CDK app's `layout`). */
export type CapacityLayout = "shared" | "lanes-from-zero";

/** Everything a simulation run takes (seconds, lines and tokens; see {@link SIMULATION_INPUTS}). */
export interface SimulationInputs {
  lines: number;
  tokensPerLine: number;
  prefillTokensPerSecond: number;
  requestSeconds: number | undefined;
  linesPerRequest: number;
  serviceVariation: number;
  minInstances: number;
  maxInstances: number;
  requestsPerInstance: number;
  capacity: CapacityMode;
  lanes: boolean;
  interactiveReserve: number;
  interactiveRate: number;
  batchSize: number;
  batchingWindowSeconds: number;
  functionTimeoutSeconds: number;
  deadlineMarginSeconds: number;
  maxConcurrentGroups: number;
  maxConcurrency: number | undefined;
  maxAttempts: number;
  retryAfterSeconds: number;
  maxReceiveCount: number;
  endpointErrorRate: number;
  ingestLinesPerSecond: number;
  ledgerLinesPerSecond: number;
  targetConcurrentRequests: number;
  layout: CapacityLayout;
  bulkDrainGoalMinutes: number;
  interactiveGoalSeconds: number;
  plannedSecondsPerLine: number;
  idleHours: number;
  scaleOutCooldownSeconds: number;
  scaleInCooldownSeconds: number;
  instanceStartSeconds: number;
  instanceStopSeconds: number;
  invocationOverheadSeconds: number;
  coldStartSeconds: number;
  receiveSeconds: number;
  instancePrice: number | undefined;
  seed: number;
  maxHours: number;
}

/** One input: its flag, its default (or how it is derived), its bounds and what it means. */
export interface SimulationInputSpec {
  /** The field of {@link SimulationInputs}. */
  key: keyof SimulationInputs;
  /** `--<flag>` of `decisions simulate`. */
  flag: string;
  kind: "integer" | "number" | "choice" | "boolean";
  /** The default, or undefined when derived (see `doc`). */
  default: number | string | boolean | undefined;
  min?: number;
  max?: number;
  choices?: readonly string[];
  doc: string;
}

const c = AWS_CONSTANTS;

/** The CDK app's default of one of its numeric context knobs (cdk.json sets the same values). */
function knobDefault(name: string): number {
  const knob = INFRA_KNOBS.find((candidate) => candidate.name === name);
  if (typeof knob?.defaultValue !== "number") {
    throw new Error(`the CDK app has no numeric knob ${name}: simulation/SimulationInputs.ts must follow it`);
  }
  return knob.defaultValue;
}

/** Counter items per job (`JOB_COUNTER_SHARDS` in contract/jobs/jobsTableKeys.ts): a line's count goes to one of them. */
const JOB_COUNTER_ITEMS = 16;

/** The CDK app's defaults of the knobs the simulation follows. */
const APP = {
  requestsPerInstance: knobDefault("cpuRequestsPerInstance"),
  interactiveReserve: knobDefault("interactiveReservePerInstance"),
  bulkDrainGoalMinutes: knobDefault("bulkDrainGoalMinutes"),
  interactiveGoalSeconds: knobDefault("interactiveLatencyAlarmSeconds"),
  secondsPerLine: knobDefault("millisecondsPerLine") / 1000,
  instanceStartSeconds: knobDefault("instanceStartSeconds"),
  layout: INFRA_KNOBS.find((knob) => knob.name === "layout")?.defaultValue as CapacityLayout,
} as const;

/** The scaling times the CDK app derives from its default instance start. */
const APP_SCALING = deriveScalingTimes({ instanceStartSeconds: APP.instanceStartSeconds });

/**
 * The inputs of a simulation, their flags, defaults and meaning: the one table the command's
 * parser, its usage text and docs/simulation.md follow. Defaults describe the CDK app's defaults
 * on `ml.c6i.8xlarge`; what is measured and what is assumed is said in each line.
 */
export const SIMULATION_INPUTS: readonly SimulationInputSpec[] = [
  {
    key: "lines",
    flag: "lines",
    kind: "integer",
    default: 1_000_000,
    min: 0,
    max: 100_000_000,
    doc: "lines of the bulk job (0: none; with `--idle-hours`, an idle day)",
  },
  {
    key: "tokensPerLine",
    flag: "tokens-per-line",
    kind: "number",
    default: 491.9,
    min: 1,
    doc: "prompt tokens per line, grouping included (measured: `ticket-routing` through the local pipeline, docs/benchmarks/2026-12-01-pipeline.md)",
  },
  {
    key: "prefillTokensPerSecond",
    flag: "prefill-rate",
    kind: "number",
    default: 1575.2,
    min: 0.001,
    doc: "prompt tokens per second of one instance: the 196.9 measured on 2 cores × 8 for 16 physical cores (the scaling is an assumption)",
  },
  {
    key: "requestSeconds",
    flag: "request-s",
    kind: "number",
    default: undefined,
    min: 0,
    doc: "seconds one request holds an instance; overrides lines × tokens ÷ prefill rate (for a measured figure)",
  },
  {
    key: "linesPerRequest",
    flag: "lines-per-request",
    kind: "number",
    default: 1,
    min: 1,
    doc: "lines decided in one endpoint request (items sharing a state are grouped)",
  },
  {
    key: "serviceVariation",
    flag: "service-cv",
    kind: "number",
    default: 0.1,
    min: 0,
    max: 2,
    doc: "coefficient of variation of a request's time (normal, cut at 0.2 × the mean)",
  },
  {
    key: "minInstances",
    flag: "min-instances",
    kind: "integer",
    default: 1,
    min: 0,
    max: 1000,
    doc: "the endpoint's fewest instances (`lanes-from-zero`: the interactive component's floor of copies; 0 only there)",
  },
  {
    key: "maxInstances",
    flag: "max-instances",
    kind: "integer",
    default: 20,
    min: 1,
    max: 1000,
    doc: "the endpoint's most instances",
  },
  {
    key: "requestsPerInstance",
    flag: "requests-per-instance",
    kind: "integer",
    default: APP.requestsPerInstance,
    min: 1,
    max: 10_000,
    doc: "requests one instance admits: 1 running + the rest waiting; beyond, 503 (the CDK app's `cpuRequestsPerInstance`)",
  },
  {
    key: "capacity",
    flag: "capacity",
    kind: "choice",
    default: "follow",
    choices: ["fixed", "follow"],
    doc: "`follow`: the deployed design: the capacity controller (its own `planLaneConcurrency`) sets each lane's MaximumConcurrency from the instances each minute, at the minimum while the endpoint is Updating, and publishes the capacity rule's `GoalCapacityRatio` (its own `planGoalCapacity`), which the endpoint's one target-tracking policy follows; `fixed`: the code before the controller (calls in flight sized for minInstances by deriveDecideCapacity, scaling on ConcurrentRequestsPerModel only)",
  },
  {
    key: "lanes",
    flag: "lanes",
    kind: "boolean",
    default: true,
    doc: "two lanes (interactive and bulk queues and event sources; the adapter keeps `--interactive-reserve` places for interactive calls and serves them first), as the CDK app deploys them; off: one queue, calls served first come, first served",
  },
  {
    key: "interactiveReserve",
    flag: "interactive-reserve",
    kind: "integer",
    default: undefined,
    min: 0,
    doc: `places of an instance only interactive calls may take (default: min(${APP.interactiveReserve}, requests-per-instance − 1) with lanes, the CDK app's \`interactiveReservePerInstance\`; 0 without)`,
  },
  {
    key: "interactiveRate",
    flag: "interactive-rate",
    kind: "number",
    default: 0,
    min: 0,
    doc: "interactive items per second (Poisson) while the job drains",
  },
  {
    key: "batchSize",
    flag: "batch-size",
    kind: "integer",
    default: 10,
    min: 1,
    max: 10_000,
    doc: "SQS messages per decide invocation",
  },
  {
    key: "batchingWindowSeconds",
    flag: "batching-window-s",
    kind: "number",
    default: 1,
    min: 0,
    max: c.batchingWindowMaxSeconds.value,
    doc: "the event source's batching window",
  },
  {
    key: "functionTimeoutSeconds",
    flag: "function-timeout-s",
    kind: "number",
    default: 120,
    min: 1,
    max: 900,
    doc: "the decide function's timeout (visibility timeout = 6 × this + the window)",
  },
  {
    key: "deadlineMarginSeconds",
    flag: "deadline-margin-s",
    kind: "number",
    default: 10,
    min: 0,
    doc: "no call starts later than the timeout less this",
  },
  {
    key: "maxConcurrentGroups",
    flag: "groups",
    kind: "integer",
    default: 4,
    min: 1,
    max: 64,
    doc: "`MAX_CONCURRENT_GROUPS` as configured (deriveDecideCapacity may lower it)",
  },
  {
    key: "maxConcurrency",
    flag: "max-concurrency",
    kind: "integer",
    default: undefined,
    min: 1,
    max: 1000,
    doc: "the bulk event source's MaximumConcurrency; default derived (fixed: deriveDecideCapacity; follow: the controller). Below 2 only for a local poller",
  },
  {
    key: "maxAttempts",
    flag: "max-attempts",
    kind: "integer",
    default: 6,
    min: 1,
    max: 20,
    doc: "attempts per endpoint call, the first included (`MAX_ATTEMPTS`)",
  },
  {
    key: "retryAfterSeconds",
    flag: "retry-after-s",
    kind: "number",
    default: 1,
    min: 0,
    doc: "the adapter's Retry-After on 503",
  },
  {
    key: "maxReceiveCount",
    flag: "max-receive-count",
    kind: "integer",
    default: 5,
    min: 1,
    max: 1000,
    doc: "receives before SQS moves a message to the DLQ",
  },
  {
    key: "endpointErrorRate",
    flag: "error-rate",
    kind: "number",
    default: 0,
    min: 0,
    max: 1,
    doc: "share of served calls that fail with a 5xx other than capacity (retried, then given back to SQS)",
  },
  {
    key: "ingestLinesPerSecond",
    flag: "ingest-rate",
    kind: "number",
    default: 500,
    min: 0,
    doc: "lines per second ingest sends (0: the whole job is queued at once); 500 assumes 20 ms per SendMessageBatch of 10",
  },
  {
    key: "ledgerLinesPerSecond",
    flag: "ledger-rate",
    kind: "number",
    default:
      (JOB_COUNTER_ITEMS * c.partitionWriteUnitsPerSecond.value) / c.transactionWriteUnitsPerItem.value,
    min: 0,
    doc: `lines per second the job's ledger counts (each line's transaction adds to one of the job's ${JOB_COUNTER_ITEMS} counter items, in turn: ${JOB_COUNTER_ITEMS} × 1000 WCU ÷ 2 per transactional write, once DynamoDB's adaptive capacity has given the job's hot items partitions of their own; 0: unlimited)`,
  },
  {
    key: "targetConcurrentRequests",
    flag: "target-concurrent",
    kind: "number",
    default: 1,
    min: 0.001,
    doc: "fixed: the target of ConcurrentRequestsPerModel, as the code before the controller deployed it",
  },
  {
    key: "layout",
    flag: "layout",
    kind: "choice",
    default: APP.layout,
    choices: ["shared", "lanes-from-zero"],
    doc: "follow: `shared`: one fleet serves both lanes (the adapter keeps the interactive reserve); `lanes-from-zero`: a pool of copies per lane (inference components), interactive from `--min-instances`, bulk from 0, scaled out from zero by step scaling on no-capacity failures (the CDK app's `layout`)",
  },
  {
    key: "bulkDrainGoalMinutes",
    flag: "bulk-drain-goal-minutes",
    kind: "number",
    default: APP.bulkDrainGoalMinutes,
    min: 1,
    doc: "follow: the bulk lane's drain goal: instances are bought only for a backlog the instances in service would not drain within it (`planGoalCapacity`; the CDK app's `bulkDrainGoalMinutes`)",
  },
  {
    key: "interactiveGoalSeconds",
    flag: "interactive-goal-s",
    kind: "number",
    default: APP.interactiveGoalSeconds,
    min: 1,
    doc: "follow: the interactive lane's latency goal (the CDK app's `interactiveLatencyAlarmSeconds`)",
  },
  {
    key: "plannedSecondsPerLine",
    flag: "planned-s-per-line",
    kind: "number",
    default: undefined,
    min: 0.001,
    doc: `follow: the seconds per line the capacity rule plans with (the CDK app's \`millisecondsPerLine\` ÷ 1000, ${APP.secondsPerLine} by default); default: the model's own mean, \`--request-s\` ÷ \`--lines-per-request\` or \`--tokens-per-line\` ÷ \`--prefill-rate\` (as measured), which the defaults make the CDK app's`,
  },
  {
    key: "idleHours",
    flag: "idle-hours",
    kind: "number",
    default: 0,
    min: 0,
    max: 8760,
    doc: "hours with no work before the job is uploaded (paid as the layout pays them; `--lines 0 --idle-hours 24`: an idle day)",
  },
  {
    key: "scaleOutCooldownSeconds",
    flag: "scale-out-cooldown-s",
    kind: "number",
    default: undefined,
    min: 0,
    doc: `the scale-out cooldown (default: the CDK app's, \`deriveScalingTimes\`: --instance-start-s + 60, ${APP_SCALING.scaleOutCooldownSeconds} at the default start; AWS's default is 300)`,
  },
  {
    key: "scaleInCooldownSeconds",
    flag: "scale-in-cooldown-s",
    kind: "number",
    default: APP_SCALING.scaleInCooldownSeconds,
    min: 0,
    doc: "the CDK app's scale-in cooldown (AWS's default is 300)",
  },
  {
    key: "instanceStartSeconds",
    flag: "instance-start-s",
    kind: "number",
    default: APP.instanceStartSeconds,
    min: 0,
    doc: "a new instance's time to InService, in the model and in the capacity rule's plan (assumption; the CDK app's `instanceStartSeconds`)",
  },
  {
    key: "instanceStopSeconds",
    flag: "instance-stop-s",
    kind: "number",
    default: c.instanceStopSeconds.value,
    min: 0,
    doc: "a removed instance's time to leave (assumption)",
  },
  {
    key: "invocationOverheadSeconds",
    flag: "invocation-overhead-s",
    kind: "number",
    default: 0.03,
    min: 0,
    doc: "a decide invocation's own time besides its calls (assumption)",
  },
  {
    key: "coldStartSeconds",
    flag: "cold-start-s",
    kind: "number",
    default: 1,
    min: 0,
    doc: "a new decide function instance's start (assumption)",
  },
  {
    key: "receiveSeconds",
    flag: "receive-s",
    kind: "number",
    default: 0.02,
    min: 0,
    doc: "from a batch's messages taken to its invocation starting (assumption)",
  },
  {
    key: "instancePrice",
    flag: "instance-price",
    kind: "number",
    default: undefined,
    min: 0,
    doc: "price of an instance-hour, for `cost` (none: no cost)",
  },
  {
    key: "seed",
    flag: "seed",
    kind: "integer",
    default: 1,
    min: 0,
    doc: "seed of the pseudo-random numbers: the same seed, the same run",
  },
  {
    key: "maxHours",
    flag: "max-hours",
    kind: "number",
    default: 2000,
    min: 0.001,
    doc: "simulated hours after which a run stops unfinished",
  },
];

/**
 * Completes partial inputs with the defaults of {@link SIMULATION_INPUTS} and checks them.
 *
 * @throws {SimulationInputError} naming the flag of a value out of range or inconsistent.
 */
export function resolveSimulationInputs(partial: Partial<SimulationInputs> = {}): SimulationInputs {
  const values: Record<string, unknown> = {};
  for (const spec of SIMULATION_INPUTS) {
    const given = partial[spec.key];
    const value = given === undefined ? spec.default : given;
    if (typeof value === "number") checkNumber(spec, value);
    if (spec.kind === "choice" && value !== undefined && !spec.choices?.includes(String(value))) {
      throw new SimulationInputError(
        spec.flag,
        `--${spec.flag} must be one of ${spec.choices?.join(", ")}, got ${String(value)}`,
      );
    }
    values[spec.key] = value;
  }
  const inputs = values as unknown as SimulationInputs;
  inputs.plannedSecondsPerLine =
    partial.plannedSecondsPerLine ??
    (inputs.requestSeconds === undefined
      ? inputs.tokensPerLine / inputs.prefillTokensPerSecond
      : inputs.requestSeconds / inputs.linesPerRequest);
  inputs.scaleOutCooldownSeconds =
    partial.scaleOutCooldownSeconds ??
    deriveScalingTimes({ instanceStartSeconds: inputs.instanceStartSeconds }).scaleOutCooldownSeconds;
  if (inputs.layout === "lanes-from-zero") {
    if (inputs.capacity !== "follow" || !inputs.lanes) {
      throw new SimulationInputError(
        "layout",
        "--layout lanes-from-zero needs --capacity follow and --lanes on (each lane has capacity of its own)",
      );
    }
    // Each pool serves one lane: nothing of an instance is kept for the other.
    inputs.interactiveReserve = 0;
  } else if (inputs.minInstances < 1) {
    throw new SimulationInputError(
      "min-instances",
      "--min-instances must be at least 1 with --layout shared (only inference components scale to zero)",
    );
  }
  inputs.interactiveReserve ??=
    partial.interactiveReserve ??
    (inputs.lanes ? Math.min(APP.interactiveReserve, inputs.requestsPerInstance - 1) : 0);
  if (inputs.maxInstances < inputs.minInstances) {
    throw new SimulationInputError(
      "max-instances",
      `--max-instances (${inputs.maxInstances}) must be at least --min-instances (${inputs.minInstances})`,
    );
  }
  if (inputs.interactiveReserve > inputs.requestsPerInstance - 1) {
    throw new SimulationInputError(
      "interactive-reserve",
      `--interactive-reserve (${inputs.interactiveReserve}) must leave bulk calls at least one place of the ${inputs.requestsPerInstance} an instance admits: at most ${inputs.requestsPerInstance - 1}`,
    );
  }
  if (!inputs.lanes && inputs.interactiveReserve > 0) {
    throw new SimulationInputError("interactive-reserve", "--interactive-reserve needs lanes (--lanes)");
  }
  return inputs;
}

function checkNumber(spec: SimulationInputSpec, value: number): void {
  const ok =
    Number.isFinite(value) &&
    (spec.kind !== "integer" || Number.isInteger(value)) &&
    (spec.min === undefined || value >= spec.min) &&
    (spec.max === undefined || value <= spec.max);
  if (!ok) {
    const range = `${spec.min ?? "-∞"}…${spec.max ?? "∞"}`;
    throw new SimulationInputError(
      spec.flag,
      `--${spec.flag} must be ${spec.kind === "integer" ? "an integer" : "a number"} in ${range}, got ${value}`,
    );
  }
}
