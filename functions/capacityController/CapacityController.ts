import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type {
  CapacityGoals,
  EndpointReading,
  LaneLimits,
  PerLane,
} from "../../core/capacity/capacityTypes.js";
import { type GoalCapacityPlan, planGoalCapacity } from "../../core/capacity/planGoalCapacity.js";
import { type LaneConcurrencyPlan, planLaneConcurrency } from "../../core/capacity/planLaneConcurrency.js";
import type { EndpointCapacityReader, LaneConcurrencySetter, QueueBacklogReader } from "./capacityPorts.js";
import type { CapacityCheckFailure } from "./errors.js";

/** Options of a {@link CapacityController}. */
export interface CapacityControllerOptions {
  endpoint: EndpointCapacityReader;
  queues: QueueBacklogReader;
  eventSources: LaneConcurrencySetter;
  /** Requests one instance of each variant admits (its smallest pool's), by variant name. */
  requestsPerInstance: Readonly<Record<string, number>>;
  /** `SEMIF_INTERACTIVE_RESERVE` of the endpoint's instances. */
  interactiveReserve: number;
  lanes: PerLane<LaneLimits>;
  goals: CapacityGoals;
}

/** A lane's event source concurrency before and after a check. */
export interface LaneConcurrencyChange {
  /** What it ran with; undefined when it could not be read or none was set. */
  from: number | undefined;
  to: number;
  /** Whether `UpdateEventSourceMapping` was called (only when the value changes). */
  updated: boolean;
}

/** What one check read, decided and did. */
export interface CapacityCheck {
  /** The endpoint as read; undefined when it could not be. */
  endpoint: EndpointReading | undefined;
  /** InService instances: Σ `CurrentInstanceCount`; undefined when the endpoint was not read. */
  inServiceInstances: number | undefined;
  /** Visible messages per lane; a lane is missing when its queue could not be read. */
  backlog: Partial<Record<Lane, number>>;
  /**
   * The bulk lane's visible messages ÷ InService instances (÷ 1 when none is in service); undefined
   * when either was not read.
   */
  backlogPerInstance: number | undefined;
  /**
   * The capacity rule's plan (`planGoalCapacity`) on both lanes' backlogs, interactive first;
   * undefined when the endpoint or a queue was not read (no data point: target tracking waits).
   */
  goal: GoalCapacityPlan | undefined;
  plan: LaneConcurrencyPlan;
  /** Per lane; a lane is missing when its concurrency could not be set. */
  changes: Partial<Record<Lane, LaneConcurrencyChange>>;
  /** The steps that failed (the check did the others). */
  failures: CapacityCheckFailure[];
}

/**
 * The capacity controller's check, run once a minute: reads the endpoint and both lanes' queues,
 * plans each lane's event source concurrency from the instances the endpoint admits now
 * ({@link planLaneConcurrency}) and sets those that change — lowered ones first, so that a
 * scale-in takes calls away before anything is added. A step that fails is recorded and the others
 * still run: without the endpoint the lanes get their values at minimum capacity.
 */
export class CapacityController {
  readonly #options: CapacityControllerOptions;

  constructor(options: CapacityControllerOptions) {
    this.#options = options;
  }

  /** Never throws for a failed step: see {@link CapacityCheck.failures}. */
  async check(): Promise<CapacityCheck> {
    const failures: CapacityCheckFailure[] = [];
    const attempt = async <T>(step: string, read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (error) {
        failures.push({ step, error });
        return undefined;
      }
    };
    const { endpoint: endpointReader, queues, eventSources } = this.#options;
    const endpoint = await attempt("read the endpoint", () => endpointReader.read());
    const backlog: Partial<Record<Lane, number>> = {};
    for (const lane of LANES) {
      const visible = await attempt(`read the ${lane} queue`, () => queues.visibleMessages(lane));
      if (visible !== undefined) backlog[lane] = visible;
    }
    const inServiceInstances =
      endpoint === undefined
        ? undefined
        : endpoint.variants.reduce((sum, variant) => sum + Math.max(0, variant.current ?? 0), 0);
    const backlogPerInstance =
      inServiceInstances === undefined || backlog.bulk === undefined
        ? undefined
        : backlog.bulk / Math.max(1, inServiceInstances);
    const goal = this.#goalPlan(endpoint, backlog);

    const plan = planLaneConcurrency({
      endpoint,
      requestsPerInstance: this.#options.requestsPerInstance,
      interactiveReserve: this.#options.interactiveReserve,
      lanes: this.#options.lanes,
    });

    const current: Partial<Record<Lane, number | undefined>> = {};
    for (const lane of LANES) {
      // A value that cannot be read is set anyway: setting is idempotent, skipping it could strand a high one.
      current[lane] = await attempt(`read the ${lane} lane's concurrency`, () => eventSources.get(lane));
    }
    const order = [...LANES].sort(
      (a, b) => delta(current[a], plan.concurrency[a]) - delta(current[b], plan.concurrency[b]),
    );
    const changes: Partial<Record<Lane, LaneConcurrencyChange>> = {};
    for (const lane of order) {
      const from = current[lane];
      const to = plan.concurrency[lane];
      if (from === to) {
        changes[lane] = { from, to, updated: false };
        continue;
      }
      const set = await attempt(`set the ${lane} lane's concurrency to ${to}`, async () => {
        await eventSources.set(lane, to);
        return true;
      });
      if (set) changes[lane] = { from, to, updated: true };
    }
    return { endpoint, inServiceInstances, backlog, backlogPerInstance, goal, plan, changes, failures };
  }

  /**
   * The capacity rule on what was read: instances in service counted as the lanes' concurrency
   * counts them (Σ min(current, desired) over the variants), both lanes' backlogs against their goals.
   */
  #goalPlan(
    endpoint: EndpointReading | undefined,
    backlog: Partial<Record<Lane, number>>,
  ): GoalCapacityPlan | undefined {
    if (endpoint === undefined || backlog.interactive === undefined || backlog.bulk === undefined) {
      return undefined;
    }
    const inService = endpoint.variants.reduce(
      (sum, variant) => sum + Math.max(0, Math.min(variant.current ?? 0, variant.desired ?? 0)),
      0,
    );
    const { goals } = this.#options;
    return planGoalCapacity({
      inService,
      demands: LANES.map((lane) => ({ backlog: backlog[lane] ?? 0, goalSeconds: goals.goalSeconds[lane] })),
      secondsPerLine: goals.secondsPerLine,
      instanceStartSeconds: goals.instanceStartSeconds,
      maxInstances: goals.maxInstances,
    });
  }
}

/** How much a lane's concurrency rises (negative: falls); an unknown value sorts as a fall, first. */
function delta(from: number | undefined, to: number): number {
  return from === undefined ? Number.NEGATIVE_INFINITY : to - from;
}
