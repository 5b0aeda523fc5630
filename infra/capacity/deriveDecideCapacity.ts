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
  /** `maxConcurrentGroups`: the most InvokeEndpoint calls one decide invocation may have in flight. */
  configuredGroupsPerInvocation: number;
}

/** What the decide function is deployed with, sized for the endpoint at its minimum capacity. */
export interface DecideCapacity {
  /** Requests the endpoint admits at minimum capacity: `minInstances × min(requestsPerInstanceByPool)`. */
  admittedAtMinimum: number;
  /** The SQS event source's `MaximumConcurrency` (decide invocations at once). */
  maxConcurrency: number;
  /** `MAX_CONCURRENT_GROUPS` of the function (InvokeEndpoint calls per invocation). */
  groupsPerInvocation: number;
  /** `maxConcurrency × groupsPerInvocation`: the most calls the pipeline has in flight; ≤ `admittedAtMinimum`. */
  callsInFlight: number;
}

/** Lowest and highest `MaximumConcurrency` an SQS event source accepts. */
export const SQS_MAX_CONCURRENCY_RANGE = { min: 2, max: 1000 } as const;

/**
 * The endpoint admits fewer requests at minimum capacity than the event source's lowest maximum
 * concurrency (2) with one group each would send: every backlog would meet 503 answers.
 */
export class DecideCapacityError extends Error {
  override name = "DecideCapacityError";
}

/**
 * Sizes the decide function for what the endpoint admits at its **minimum** capacity, so that a
 * backlog landing on an endpoint that has not scaled out yet meets no 503 storm:
 *
 * - `admittedAtMinimum = minInstances × min(requestsPerInstanceByPool)`;
 * - `groupsPerInvocation = min(configured, floor(admittedAtMinimum / 2))` (two invocations, the
 *   event source's lowest maximum concurrency, must fit);
 * - `maxConcurrency = min(1000, floor(admittedAtMinimum / groupsPerInvocation))`.
 *
 * Sizing from the maximum capacity instead (as before) sent 16 calls at the 9 slots of the one
 * instance running at minimum capacity. Scale-out still raises throughput: each instance runs one
 * request at a time, and autoscaling on concurrent requests per instance spreads the calls in flight
 * over more instances (see `DecisionEndpoint`).
 *
 * @throws {DecideCapacityError} when `admittedAtMinimum` is below 2.
 * @example
 * ```ts
 * deriveDecideCapacity({ minInstances: 1, requestsPerInstanceByPool: [9], configuredGroupsPerInvocation: 4 });
 * // { admittedAtMinimum: 9, groupsPerInvocation: 4, maxConcurrency: 2, callsInFlight: 8 }
 * ```
 */
export function deriveDecideCapacity(inputs: DecideCapacityInputs): DecideCapacity {
  if (inputs.requestsPerInstanceByPool.length === 0) {
    throw new DecideCapacityError("deriveDecideCapacity: the endpoint has no instance pool");
  }
  const admittedAtMinimum = inputs.minInstances * Math.min(...inputs.requestsPerInstanceByPool);
  if (admittedAtMinimum < SQS_MAX_CONCURRENCY_RANGE.min) {
    throw new DecideCapacityError(
      `the endpoint admits ${admittedAtMinimum} request(s) at minimum capacity (minInstances × requests per instance of its smallest pool), ` +
        `fewer than the ${SQS_MAX_CONCURRENCY_RANGE.min} decide invocations an SQS event source runs at least: raise minInstances or the pool's requests per instance`,
    );
  }
  const groupsPerInvocation = Math.max(
    1,
    Math.min(
      inputs.configuredGroupsPerInvocation,
      Math.floor(admittedAtMinimum / SQS_MAX_CONCURRENCY_RANGE.min),
    ),
  );
  const maxConcurrency = Math.min(
    SQS_MAX_CONCURRENCY_RANGE.max,
    Math.floor(admittedAtMinimum / groupsPerInvocation),
  );
  return {
    admittedAtMinimum,
    maxConcurrency,
    groupsPerInvocation,
    callsInFlight: maxConcurrency * groupsPerInvocation,
  };
}
