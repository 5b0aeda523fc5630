import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import {
  type DecideCapacity,
  DecideCapacityError,
  deriveLaneCapacity,
  type LaneCapacity,
  SQS_MAX_CONCURRENCY_RANGE,
} from "./deriveDecideCapacity.js";

/** Inputs of {@link deriveComponentDecideCapacity}. */
export interface ComponentDecideCapacityInputs {
  /** The interactive component's floor of copies (`minInstances`); the bulk component's is 0. */
  interactiveMinCopies: number;
  /** Requests one copy admits (the image's requests per instance: a copy takes an instance). */
  requestsPerCopy: number;
  /** `maxConcurrentGroups`: the most InvokeEndpoint calls one decide invocation may have in flight. */
  configuredGroupsPerInvocation: number;
}

/**
 * Sizes both lanes' decide functions at minimum capacity with `layout=lanes-from-zero`, where each
 * lane has an inference component of its own: a lane's share is its own copies at their floor ×
 * requests per copy (every place of a copy is its lane's: no reserve), sized by `deriveLaneCapacity`.
 * A lane whose copies at their floor admit fewer than the event source's 2 invocations (the bulk
 * lane at 0 copies; the interactive lane with `minInstances` 0) gets that floor: 2 invocations of
 * 1 call. Those first calls find no copy, which is what scales the component out from zero
 * (`NoCapacityInvocationFailures`); the decide function re-queues their lines as busy, and the
 * capacity controller raises the lane's concurrency as copies come into service.
 *
 * @example
 * ```ts
 * deriveComponentDecideCapacity({ interactiveMinCopies: 1, requestsPerCopy: 4, configuredGroupsPerInvocation: 4 }).lanes;
 * // { interactive: { calls: 4, maxConcurrency: 2, groupsPerInvocation: 2, callsInFlight: 4 },
 * //   bulk: { calls: 0, maxConcurrency: 2, groupsPerInvocation: 1, callsInFlight: 2 } }
 * ```
 */
export function deriveComponentDecideCapacity(inputs: ComponentDecideCapacityInputs): DecideCapacity {
  const floors: Record<Lane, number> = { interactive: inputs.interactiveMinCopies, bulk: 0 };
  const lanes = {} as Record<Lane, LaneCapacity>;
  for (const lane of LANES) {
    const calls = floors[lane] * inputs.requestsPerCopy;
    lanes[lane] = laneCapacityOf(calls, inputs.configuredGroupsPerInvocation);
  }
  return { admittedAtMinimum: inputs.interactiveMinCopies * inputs.requestsPerCopy, reserved: 0, lanes };
}

/** `deriveLaneCapacity`, or the event source's floor (2 invocations of 1 call) where fewer calls fit. */
function laneCapacityOf(calls: number, configuredGroupsPerInvocation: number): LaneCapacity {
  try {
    return deriveLaneCapacity(calls, configuredGroupsPerInvocation);
  } catch (error) {
    if (!(error instanceof DecideCapacityError)) throw error;
    const floor = SQS_MAX_CONCURRENCY_RANGE.min;
    return { calls, maxConcurrency: floor, groupsPerInvocation: 1, callsInFlight: floor };
  }
}
