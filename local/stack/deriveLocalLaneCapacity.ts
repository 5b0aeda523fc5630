import { DEFAULT_INTERACTIVE_RESERVE } from "../../adapter/server/config.js";
import { EVENT_SOURCE_CONCURRENCY } from "../../contract/lanes/eventSourceConcurrency.js";
import { laneShares, sizeLaneShare } from "../../contract/lanes/laneShares.js";
import type { Lane } from "../../contract/lanes/lanes.js";
import { DECIDE_SETTINGS } from "../../contract/settings/decideSettings.js";
import { SERVER_SETTING_ENTRIES } from "../../contract/settings/serverSettings.js";

/** What the local adapter admits at once, by default: the numbers the lanes are sized against. */
export interface LocalAdmission {
  /** Requests the engine runs at once (`--max-in-flight`; default: the parallel sequences, 1). */
  running: number;
  /** Requests admitted to wait (`--queue-depth`, default 8); beyond them a 503. */
  waiting: number;
  /** Waiting places only interactive calls may take (`--interactive-reserve`, default 2). */
  interactiveReserve: number;
}

/**
 * The local adapter's admission as the stack starts it (no admission flags: the adapter's
 * defaults): 1 running + 8 waiting = 9 admitted, 2 of the waiting places kept for interactive calls.
 */
export const LOCAL_ADMISSION: LocalAdmission = {
  running: SERVER_SETTING_ENTRIES.parallelSequences.default.value,
  waiting: SERVER_SETTING_ENTRIES.queueDepth.default.value,
  interactiveReserve: Math.min(DEFAULT_INTERACTIVE_RESERVE, SERVER_SETTING_ENTRIES.queueDepth.default.value),
};

/** One lane's share of the adapter: its poller's concurrency and its decide function's groups. */
export interface LaneCapacity {
  /** Endpoint calls the lane may have in flight (its share of what the adapter admits). */
  calls: number;
  /** The lane's poller's `maximumConcurrency` (decide invocations at once). */
  maximumConcurrency: number;
  /** The lane's decide function's `MAX_CONCURRENT_GROUPS` (endpoint calls per invocation). */
  maxConcurrentGroups: number;
}

/**
 * Sizes each lane's poller and decide function against what the local adapter admits, as the CDK
 * app sizes its event sources against the endpoint at minimum capacity: interactive's calls fit in
 * the waiting places reserved for them, bulk's in the rest, so bulk never takes the places an
 * incident needs (an interactive call meets no 503 for bulk work, and after the adapter's
 * interactive-first order waits at most for the evaluation running).
 *
 * The shares are `laneShares` of one instance (contract/lanes), each sized by `sizeLaneShare`,
 * the rules the CDK app and the capacity controller read too: per lane, with `share` its calls,
 * `groups = min(configured, max(1, floor(share / 2)))` (two invocations, the mapping's lowest
 * concurrency, must fit) and `concurrency = max(1, floor(share / groups))`. With the defaults (1 running + 8 waiting, reserve 2, 4 groups configured):
 * - interactive: share 2 → 2 invocations × 1 call = 2 calls (the reserve);
 * - bulk: share 9 − 2 = 7 → 2 invocations × 3 calls = 6 calls: one waiting place is left free
 *   besides the reserve.
 *
 * @throws RangeError when the reserve leaves bulk fewer than 2 places, or interactive has none.
 */
export function deriveLocalLaneCapacity(
  admission: LocalAdmission = LOCAL_ADMISSION,
  configuredGroups: number = DECIDE_SETTINGS.maxConcurrentGroups.default.value,
): Record<Lane, LaneCapacity> {
  const admitted = admission.running + admission.waiting;
  const shares = laneShares({
    instances: 1,
    requestsPerInstance: admitted,
    interactiveReservePerInstance: admission.interactiveReserve,
  });
  const size = (lane: Lane): LaneCapacity => {
    const share = shares[lane];
    if (share < 1 || (lane === "bulk" && share < EVENT_SOURCE_CONCURRENCY.min)) {
      throw new RangeError(
        `the adapter admits ${admitted} call(s) with ${admission.interactiveReserve} kept for interactive: the ${lane} lane gets ${share}; raise the queue depth or lower the reserve`,
      );
    }
    const { groupsPerInvocation, maxConcurrency } = sizeLaneShare(share, configuredGroups);
    return {
      calls: maxConcurrency * groupsPerInvocation,
      maximumConcurrency: maxConcurrency,
      maxConcurrentGroups: groupsPerInvocation,
    };
  };
  return { interactive: size("interactive"), bulk: size("bulk") };
}
