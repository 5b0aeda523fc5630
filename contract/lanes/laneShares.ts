import { EVENT_SOURCE_CONCURRENCY } from "./eventSourceConcurrency.js";
import type { Lane } from "./lanes.js";

/** What the endpoint admits, the input of {@link laneShares}. */
export interface LaneShareInputs {
  /** Instances counted (the endpoint's minimum, or those in service now; 1 for the local adapter). */
  instances: number;
  /** Requests one instance admits at once (running + waiting) before answering 503. */
  requestsPerInstance: number;
  /**
   * Waiting places per instance only interactive calls may take (`SEMIF_INTERACTIVE_RESERVE`): the
   * adapter admits a bulk call only while fewer than `requestsPerInstance − reserve` are admitted.
   */
  interactiveReservePerInstance: number;
}

/**
 * Each lane's share of the calls the endpoint admits, in calls in flight: interactive gets the
 * places reserved for it (`instances × reserve`), so an incident is admitted however many bulk
 * calls wait; bulk gets the rest (`instances × (requests − reserve)`), since the adapter refuses a
 * bulk call beyond them. The one statement of the rule, read by the CDK app (at the endpoint's
 * minimum capacity), the capacity controller (at what is in service now) and the local stack (the
 * local adapter's admission). A share may come out below what a lane needs (or negative, when the
 * reserve exceeds what an instance admits): the caller says which knob to change.
 *
 * @example
 * ```ts
 * laneShares({ instances: 1, requestsPerInstance: 9, interactiveReservePerInstance: 2 }); // { interactive: 2, bulk: 7 }
 * ```
 */
export function laneShares(inputs: LaneShareInputs): Record<Lane, number> {
  return {
    interactive: inputs.instances * inputs.interactiveReservePerInstance,
    bulk: inputs.instances * (inputs.requestsPerInstance - inputs.interactiveReservePerInstance),
  };
}

/** How a lane's decide function spends its share: {@link sizeLaneShare}'s answer. */
export interface LaneShareSizing {
  /** `MAX_CONCURRENT_GROUPS` of the lane's decide function: endpoint calls per invocation. */
  groupsPerInvocation: number;
  /** The lane's event source `MaximumConcurrency`: decide invocations at once. */
  maxConcurrency: number;
}

/**
 * Sizes a lane's decide function for `calls` calls in flight at most:
 * `groupsPerInvocation = min(configured, max(1, floor(calls / 2)))` — two invocations, the event
 * source's lowest maximum concurrency, must fit — and
 * `maxConcurrency = min(1000, max(1, floor(calls / groupsPerInvocation)))`. Whether `calls` is
 * enough for the lane is the caller's to judge (the CDK app wants at least 2).
 *
 * @example
 * ```ts
 * sizeLaneShare(7, 4); // { groupsPerInvocation: 3, maxConcurrency: 2 }
 * ```
 */
export function sizeLaneShare(calls: number, configuredGroupsPerInvocation: number): LaneShareSizing {
  const groupsPerInvocation = Math.max(
    1,
    Math.min(configuredGroupsPerInvocation, Math.floor(calls / EVENT_SOURCE_CONCURRENCY.min)),
  );
  const maxConcurrency = Math.min(
    EVENT_SOURCE_CONCURRENCY.max,
    Math.max(1, Math.floor(calls / groupsPerInvocation)),
  );
  return { groupsPerInvocation, maxConcurrency };
}
