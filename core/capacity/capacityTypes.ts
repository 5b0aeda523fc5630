import type { Lane } from "../../contract/lanes/lanes.js";

/** One production variant as `DescribeEndpoint` gives it. */
export interface VariantReading {
  name: string;
  /** `CurrentInstanceCount`: the instances in service; undefined when SageMaker gives none. */
  current: number | undefined;
  /** `DesiredInstanceCount`: what autoscaling asked for; undefined when SageMaker gives none. */
  desired: number | undefined;
}

/** What the controller read of the endpoint. */
export interface EndpointReading {
  /** `EndpointStatus`: `InService`, `Updating`, `SystemUpdating`, `RollingBack`, `Failed`, … */
  status: string;
  variants: readonly VariantReading[];
}

/** What one lane's decide function runs with, besides the endpoint's capacity. */
export interface LaneLimits {
  /** `MAX_CONCURRENT_GROUPS` of the lane's decide function: endpoint calls per invocation. */
  groupsPerInvocation: number;
  /** The event source's `MaximumConcurrency` at the endpoint's minimum capacity (`deriveDecideCapacity`). */
  minConcurrency: number;
}

/** Per lane. */
export type PerLane<T> = Readonly<Record<Lane, T>>;

/** The lanes' goals and the stated assumptions the capacity rule (`planGoalCapacity`) plans with. */
export interface CapacityGoals {
  /** Each lane's goal: its backlog (with those served before it) drains within this many seconds. */
  goalSeconds: PerLane<number>;
  /** Seconds one instance takes per line. */
  secondsPerLine: number;
  /** Seconds from a scale-out to a new instance in service. */
  instanceStartSeconds: number;
  /** The endpoint's most instances. */
  maxInstances: number;
}
