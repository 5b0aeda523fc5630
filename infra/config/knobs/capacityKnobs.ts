import { integer, type KnobRule, oneOf } from "./knobParsers.js";

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

/** How many instances the endpoint runs and buys: the bounds, the goals and assumptions of the capacity rule, the layout of the lanes on the fleet, the profile and the deployment bake. */
export const CAPACITY_KNOBS: readonly KnobRule[] = [
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
];
