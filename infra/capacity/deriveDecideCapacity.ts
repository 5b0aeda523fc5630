import { EVENT_SOURCE_CONCURRENCY } from "../../contract/lanes/eventSourceConcurrency.js";
import { laneShares, sizeLaneShare } from "../../contract/lanes/laneShares.js";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";

/** Inputs of {@link deriveDecideCapacity}. */
export interface DecideCapacityInputs {
  /** The endpoint's fewest instances (its autoscaling floor): what runs when a backlog lands. */
  minInstances: number;
  /**
   * Requests one instance of each pool admits at once (running + waiting) before answering 503. At
   * minimum capacity the instance may come from any pool (a GPU shortage leaves the CPU fallback
   * pool), so the smallest counts.
   */
  requestsPerInstanceByPool: readonly number[];
  /**
   * `SEMIF_INTERACTIVE_RESERVE` of every instance: waiting places only interactive calls may take
   * (the adapter admits a bulk call only while fewer than `requests per instance − reserve` are
   * admitted).
   */
  interactiveReservePerInstance: number;
  /** `maxConcurrentGroups`: the most InvokeEndpoint calls one decide invocation may have in flight. */
  configuredGroupsPerInvocation: number;
}

/** One lane's decide function, sized for the calls the endpoint admits for that lane at minimum capacity. */
export interface LaneCapacity {
  /** Calls of this lane the endpoint admits at minimum capacity, whatever the other lane does. */
  calls: number;
  /** The SQS event source's `MaximumConcurrency` (decide invocations at once). */
  maxConcurrency: number;
  /** `MAX_CONCURRENT_GROUPS` of the function (InvokeEndpoint calls per invocation). */
  groupsPerInvocation: number;
  /** `maxConcurrency × groupsPerInvocation`: the most calls the lane has in flight; ≤ `calls`. */
  callsInFlight: number;
}

/** What the decide functions are deployed with, sized for the endpoint at its minimum capacity. */
export interface DecideCapacity {
  /** Requests the endpoint admits at minimum capacity: `minInstances × min(requestsPerInstanceByPool)`. */
  admittedAtMinimum: number;
  /** Of those, the places only interactive calls may take: `minInstances × interactiveReservePerInstance`. */
  reserved: number;
  /** Each lane's share: interactive the reserved places, bulk the rest. */
  lanes: Readonly<Record<Lane, LaneCapacity>>;
}

/** Lowest and highest `MaximumConcurrency` an SQS event source accepts (contract/lanes). */
export const SQS_MAX_CONCURRENCY_RANGE = EVENT_SOURCE_CONCURRENCY;

/**
 * A lane's share of what the endpoint admits at minimum capacity is smaller than the event
 * source's lowest maximum concurrency (2) with one group each: that lane's backlog would meet 503
 * answers. Carries the lane, the calls it was given and the knobs that raise them.
 */
export class DecideCapacityError extends Error {
  override name = "DecideCapacityError";

  constructor(
    message: string,
    /** The lane that does not fit; undefined when the endpoint has no pool at all. */
    readonly lane: Lane | undefined,
    /** The calls at minimum capacity the lane was given. */
    readonly calls: number,
  ) {
    super(message);
  }
}

/**
 * Sizes one lane's decide function for `calls` calls in flight at most, by the rule the lanes
 * share (`sizeLaneShare` in contract/lanes: `groupsPerInvocation = min(configured, floor(calls /
 * 2))`, two invocations, the event source's lowest maximum concurrency, must fit; and
 * `maxConcurrency = min(1000, floor(calls / groups))`).
 *
 * @throws {DecideCapacityError} when `calls` is below 2 (the message is generic: callers that know
 *   which knob gave `calls` say so, as {@link deriveDecideCapacity} does).
 * @example
 * ```ts
 * deriveLaneCapacity(9, 4); // { calls: 9, groupsPerInvocation: 4, maxConcurrency: 2, callsInFlight: 8 }
 * ```
 */
export function deriveLaneCapacity(calls: number, configuredGroupsPerInvocation: number): LaneCapacity {
  if (calls < SQS_MAX_CONCURRENCY_RANGE.min) {
    throw new DecideCapacityError(
      `${calls} call(s) in flight are fewer than the ${SQS_MAX_CONCURRENCY_RANGE.min} decide invocations an SQS event source runs at least`,
      undefined,
      calls,
    );
  }
  const { groupsPerInvocation, maxConcurrency } = sizeLaneShare(calls, configuredGroupsPerInvocation);
  return { calls, maxConcurrency, groupsPerInvocation, callsInFlight: maxConcurrency * groupsPerInvocation };
}

/**
 * Sizes both lanes' decide functions for what the endpoint admits at its **minimum** capacity, so
 * that a backlog landing on an endpoint that has not scaled out yet meets no 503 storm, and an
 * interactive call never meets one because of bulk work:
 *
 * - `admittedAtMinimum = minInstances × min(requestsPerInstanceByPool)`;
 * The shares are `laneShares` (contract/lanes), the rule the controller and the local stack read too:
 * - `reserved = minInstances × interactiveReservePerInstance`: the places the adapter keeps for
 *   interactive calls. The interactive lane's calls in flight stay within them, so they are
 *   admitted however many bulk calls wait;
 * - the bulk lane gets the rest, `admittedAtMinimum − reserved`: the adapter admits a bulk call only
 *   while fewer than `requests per instance − reserve` are admitted, so more bulk calls would be
 *   refused;
 * - each lane's share is then sized by {@link deriveLaneCapacity}: at least 2 invocations (the SQS
 *   event source's lowest `MaximumConcurrency`) × 1 group, so each share must be at least 2.
 *
 * Both lanes together never have more calls in flight than the endpoint admits at minimum
 * capacity; interactive calls may still use places bulk leaves idle when the endpoint has scaled
 * out (the adapter admits them up to the whole queue), only the deployed concurrency is bounded.
 *
 * @throws {DecideCapacityError} when the endpoint has no pool, or a lane's share is below 2 (the
 *   message names the knob to raise).
 * @example
 * ```ts
 * deriveDecideCapacity({ minInstances: 1, requestsPerInstanceByPool: [9], interactiveReservePerInstance: 2, configuredGroupsPerInvocation: 4 });
 * // { admittedAtMinimum: 9, reserved: 2, lanes: {
 * //   interactive: { calls: 2, groupsPerInvocation: 1, maxConcurrency: 2, callsInFlight: 2 },
 * //   bulk: { calls: 7, groupsPerInvocation: 3, maxConcurrency: 2, callsInFlight: 6 } } }
 * ```
 */
export function deriveDecideCapacity(inputs: DecideCapacityInputs): DecideCapacity {
  if (inputs.requestsPerInstanceByPool.length === 0) {
    throw new DecideCapacityError("deriveDecideCapacity: the endpoint has no instance pool", undefined, 0);
  }
  const smallestPool = Math.min(...inputs.requestsPerInstanceByPool);
  const admittedAtMinimum = inputs.minInstances * smallestPool;
  const shares = laneShares({
    instances: inputs.minInstances,
    requestsPerInstance: smallestPool,
    interactiveReservePerInstance: inputs.interactiveReservePerInstance,
  });
  const reserved = shares.interactive;
  const remedies: Record<Lane, string> = {
    interactive: `the interactive lane gets the places reserved for it, minInstances (${inputs.minInstances}) × interactiveReservePerInstance (${inputs.interactiveReservePerInstance}) = ${reserved}: raise interactiveReservePerInstance or minInstances (the bulk lane still needs at least 2 of the places left)`,
    bulk: `the bulk lane gets what the endpoint admits at minimum capacity less the interactive reserve, minInstances (${inputs.minInstances}) × (requests per instance of the smallest pool (${smallestPool}) − interactiveReservePerInstance (${inputs.interactiveReservePerInstance})) = ${shares.bulk}: raise the smallest pool's requests per instance (cpuRequestsPerInstance or gpuRequestsPerInstance) or minInstances, or lower interactiveReservePerInstance`,
  };
  const lanes = {} as Record<Lane, LaneCapacity>;
  for (const lane of LANES) {
    const calls = shares[lane];
    if (calls < SQS_MAX_CONCURRENCY_RANGE.min) {
      throw new DecideCapacityError(
        `the ${lane} lane's decide function needs at least ${SQS_MAX_CONCURRENCY_RANGE.min} calls in flight at minimum capacity (an SQS event source runs at least ${SQS_MAX_CONCURRENCY_RANGE.min} invocations, each with at least 1 call), but ${remedies[lane]}`,
        lane,
        calls,
      );
    }
    lanes[lane] = deriveLaneCapacity(calls, inputs.configuredGroupsPerInvocation);
  }
  return { admittedAtMinimum, reserved, lanes };
}
