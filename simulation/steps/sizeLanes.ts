import { DecideCapacityError, deriveLaneCapacity } from "../../infra/capacity/deriveDecideCapacity.js";
import { AWS_CONSTANTS } from "../awsConstants.js";
import type { SimulationInputs } from "../SimulationInputs.js";

/** Sizing of one lane's decide function: invocations at once × calls per invocation. */
export interface LaneSizing {
  maxConcurrency: number;
  groupsPerInvocation: number;
}

/** The deployed sizing of both lanes' decide functions (see {@link sizeLanes}). */
export interface LaneSizings {
  bulk: LaneSizing;
  interactive: LaneSizing;
}

const { maximumConcurrencyMin } = AWS_CONSTANTS;

/**
 * Sizes both lanes as the CDK app deploys them at minimum capacity: the bulk lane on the places an
 * instance keeps for bulk calls (`requestsPerInstance − interactiveReserve`), the interactive lane
 * on the reserve (at least 2 places); with `lanes-from-zero` each lane on its own pool's copies at
 * their floor (interactive `minInstances`, bulk 0). Pure; throws nothing of its own.
 *
 * @example
 * const { bulk } = sizeLanes(resolveSimulationInputs({ minInstances: 1 }));
 * bulk.maxConcurrency * bulk.groupsPerInvocation; // calls in flight the bulk lane may send
 */
export function sizeLanes(inputs: SimulationInputs): LaneSizings {
  if (inputs.layout === "lanes-from-zero") {
    // A pool per lane: interactive copies at their floor admit only interactive calls; bulk copies
    // start at 0, so the bulk lane gets the event source's floor (2 invocations of 1 call).
    return {
      bulk: sizeBulkLane({ ...inputs, minInstances: 0 }, inputs.requestsPerInstance),
      interactive: sizeLane(inputs.minInstances, inputs.requestsPerInstance, inputs.maxConcurrentGroups),
    };
  }
  const share = inputs.requestsPerInstance - inputs.interactiveReserve;
  return {
    bulk: sizeBulkLane(inputs, share),
    interactive: sizeLane(
      inputs.minInstances,
      Math.max(2, inputs.interactiveReserve),
      inputs.maxConcurrentGroups,
    ),
  };
}

/**
 * The bulk lane's deployed sizing: `deriveDecideCapacity` for what the bulk share of the minimum
 * capacity admits (the whole capacity without lanes). In follow mode the controller then changes
 * `MaximumConcurrency` each minute, never below this value (its `minConcurrency`).
 * An explicit `--max-concurrency` wins (a local poller may run fewer than 2).
 */
function sizeBulkLane(inputs: SimulationInputs, share: number): LaneSizing {
  const sized = sizeLane(inputs.minInstances, share, inputs.maxConcurrentGroups);
  if (inputs.maxConcurrency !== undefined) {
    return { maxConcurrency: inputs.maxConcurrency, groupsPerInvocation: sized.groupsPerInvocation };
  }
  return sized;
}

/**
 * `deriveLaneCapacity` (the CDK app's own formula for one lane's share) for `perInstance` places per instance; where
 * it refuses (fewer than the event source's 2 invocations fit), the event source's floor: 2
 * invocations of 1 call, which the flow control then holds to what the endpoint admits.
 */
function sizeLane(minInstances: number, perInstance: number, configured: number): LaneSizing {
  try {
    const derived = deriveLaneCapacity(minInstances * perInstance, configured);
    return { maxConcurrency: derived.maxConcurrency, groupsPerInvocation: derived.groupsPerInvocation };
  } catch (error) {
    if (!(error instanceof DecideCapacityError)) throw error;
    return { maxConcurrency: maximumConcurrencyMin.value, groupsPerInvocation: 1 };
  }
}
