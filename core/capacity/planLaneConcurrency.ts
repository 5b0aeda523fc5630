import { EVENT_SOURCE_CONCURRENCY } from "../../contract/lanes/eventSourceConcurrency.js";
import { laneShares } from "../../contract/lanes/laneShares.js";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { EndpointReading, LaneLimits, PerLane } from "./capacityTypes.js";

export { EVENT_SOURCE_CONCURRENCY };

/** Inputs of {@link planLaneConcurrency}. */
export interface LaneConcurrencyInputs {
  /** The endpoint as read now; undefined when it could not be read. */
  endpoint: EndpointReading | undefined;
  /** Requests one instance of each variant admits (its smallest pool's), by variant name. */
  requestsPerInstance: Readonly<Record<string, number>>;
  /** `SEMIF_INTERACTIVE_RESERVE`: places per instance only interactive calls may take. */
  interactiveReserve: number;
  lanes: PerLane<LaneLimits>;
}

/** What {@link planLaneConcurrency} decided. */
export interface LaneConcurrencyPlan {
  /** Each lane's event source `MaximumConcurrency`. */
  concurrency: PerLane<number>;
  /**
   * `endpoint`: sized from the instances the endpoint admits now; `minimum`: the endpoint's capacity
   * is in doubt (not read, not `InService`, a variant missing), so the values at minimum capacity.
   */
  basis: "endpoint" | "minimum";
  /** Instances counted: Σ min(current, desired) over the variants (0 when `basis` is `minimum`). */
  instances: number;
  /** Why the values at minimum capacity were kept; undefined when sized from the endpoint. */
  doubt: string | undefined;
}

/**
 * Sizes each lane's event source for what the endpoint admits **now**, as `deriveDecideCapacity`
 * does at minimum capacity:
 *
 * - instances of a variant = `min(CurrentInstanceCount, DesiredInstanceCount)`: a scale-out counts
 *   only the instances already in service (new ones are still starting), a scale-in stops counting
 *   the instances about to go as soon as it is asked for, before they go;
 * - each lane's calls are its `laneShares` (contract/lanes) summed over the variants: interactive
 *   `Σ instances × reserve`, bulk `Σ instances × (requests per instance − reserve)`;
 * - `bulk = floor(bulk calls / bulk groups)`, `interactive = floor(interactive calls / interactive groups)`;
 * - each clamped to 2…1000 (the event source's range) and never below its value at minimum capacity.
 *
 * Whenever the capacity is in doubt — the endpoint not read, not `InService` (an update, a scaling
 * activity, a rollback, a failure), a variant missing or without counts — each lane gets its value
 * at minimum capacity: the controller never raises on doubt.
 *
 * @example
 * ```ts
 * planLaneConcurrency({
 *   endpoint: { status: "InService", variants: [{ name: "AllTraffic", current: 20, desired: 20 }] },
 *   requestsPerInstance: { AllTraffic: 4 },
 *   interactiveReserve: 2,
 *   lanes: { interactive: { groupsPerInvocation: 1, minConcurrency: 2 }, bulk: { groupsPerInvocation: 1, minConcurrency: 2 } },
 * }).concurrency; // { interactive: 40, bulk: 40 }
 * ```
 */
export function planLaneConcurrency(inputs: LaneConcurrencyInputs): LaneConcurrencyPlan {
  const doubt = doubtOf(inputs);
  if (doubt !== undefined) {
    return { concurrency: minimumOf(inputs.lanes), basis: "minimum", instances: 0, doubt };
  }
  let instances = 0;
  const calls: Record<Lane, number> = { interactive: 0, bulk: 0 };
  for (const variant of inputs.endpoint?.variants ?? []) {
    const requests = inputs.requestsPerInstance[variant.name];
    if (requests === undefined) continue;
    const count = Math.max(0, Math.min(variant.current ?? 0, variant.desired ?? 0));
    const shares = laneShares({
      instances: count,
      requestsPerInstance: requests,
      interactiveReservePerInstance: Math.min(inputs.interactiveReserve, requests),
    });
    instances += count;
    calls.interactive += shares.interactive;
    calls.bulk += shares.bulk;
  }
  const concurrency = {} as Record<Lane, number>;
  for (const lane of LANES) {
    const limits = inputs.lanes[lane];
    const sized = Math.floor(calls[lane] / limits.groupsPerInvocation);
    concurrency[lane] = Math.max(
      limits.minConcurrency,
      EVENT_SOURCE_CONCURRENCY.min,
      Math.min(EVENT_SOURCE_CONCURRENCY.max, sized),
    );
  }
  return { concurrency, basis: "endpoint", instances, doubt: undefined };
}

/** Each lane's value at minimum capacity, within the event source's range. */
function minimumOf(lanes: PerLane<LaneLimits>): PerLane<number> {
  const concurrency = {} as Record<Lane, number>;
  for (const lane of LANES) {
    concurrency[lane] = Math.min(
      EVENT_SOURCE_CONCURRENCY.max,
      Math.max(EVENT_SOURCE_CONCURRENCY.min, lanes[lane].minConcurrency),
    );
  }
  return concurrency;
}

/** Why the endpoint's capacity cannot be trusted now, or undefined when it can. */
function doubtOf({ endpoint, requestsPerInstance }: LaneConcurrencyInputs): string | undefined {
  if (endpoint === undefined) return "the endpoint could not be read";
  if (endpoint.status !== "InService") return `the endpoint is ${endpoint.status}, not InService`;
  for (const name of Object.keys(requestsPerInstance)) {
    const variant = endpoint.variants.find((candidate) => candidate.name === name);
    if (variant === undefined) return `the endpoint has no variant ${name}`;
    if (variant.current === undefined || variant.desired === undefined) {
      return `variant ${name} gives no instance counts (current ${variant.current}, desired ${variant.desired})`;
    }
  }
  return undefined;
}
