import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type {
  CapacityGoals,
  EndpointReading,
  LaneLimits,
  PerLane,
} from "../../core/capacity/capacityTypes.js";
import { type GoalCapacityPlan, planGoalCapacity } from "../../core/capacity/planGoalCapacity.js";
import { type LaneConcurrencyPlan, planLaneConcurrency } from "../../core/capacity/planLaneConcurrency.js";
import type {
  ComponentCapacityReader,
  EndpointCapacityReader,
  LaneConcurrencySetter,
  QueueBacklogReader,
} from "./capacityPorts.js";
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
  /**
   * `layout=lanes-from-zero`: each lane's inference component, by name, and their reader. Each
   * lane is then sized from its own component's copies (every place of a copy is its lane's) and
   * gets a goal plan of its own; the endpoint is not read. Default none (the shared layout).
   */
  components?: { reader: ComponentCapacityReader; names: PerLane<string> };
}

/** One lane's inference component as a check read and planned it (`layout=lanes-from-zero`). */
export interface ComponentCheck {
  name: string;
  /** Its status and copies (as one variant); undefined when it could not be read. */
  reading: EndpointReading | undefined;
  /** The capacity rule on the lane's backlog and the component's copies; undefined when either was not read. */
  goal: GoalCapacityPlan | undefined;
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
  /** The endpoint as read; undefined when it could not be, or was not read (components). */
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
  /** `layout=lanes-from-zero`: each lane's component, read and planned; undefined otherwise. */
  components?: PerLane<ComponentCheck>;
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
    const attempt: Attempt = async <T>(step: string, read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (error) {
        failures.push({ step, error });
        return undefined;
      }
    };
    const { queues, components } = this.#options;
    const readBacklog = () =>
      readEachLane(
        attempt,
        (lane) => `read the ${lane} queue`,
        (lane) => queues.visibleMessages(lane),
      );
    if (components !== undefined) {
      const readings = await readEachLane(
        attempt,
        (lane) => `read the ${lane} inference component`,
        (lane) => components.reader.read(lane),
      );
      return this.#checkComponents(readings, await readBacklog(), failures, attempt);
    }
    const endpoint = await attempt("read the endpoint", () => this.#options.endpoint.read());
    const backlog = await readBacklog();
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
    const changes = await this.#applyConcurrency(plan.concurrency, attempt);
    return { endpoint, inServiceInstances, backlog, backlogPerInstance, goal, plan, changes, failures };
  }

  /**
   * The check of `layout=lanes-from-zero`: each lane sized from its own component's copies, every
   * place of a copy its own (`planLaneConcurrency` on that component alone, the interactive lane
   * with all places reserved for it, the bulk lane with none), and a goal plan per component on
   * the lane's own backlog and goal.
   */
  async #checkComponents(
    readings: Partial<Record<Lane, EndpointReading>>,
    backlog: Partial<Record<Lane, number>>,
    failures: CapacityCheckFailure[],
    attempt: Attempt,
  ): Promise<CapacityCheck> {
    const names = this.#options.components?.names as PerLane<string>;
    const requests = Math.min(...Object.values(this.#options.requestsPerInstance));
    const concurrency = {} as Record<Lane, number>;
    const components = {} as Record<Lane, ComponentCheck>;
    const doubts: string[] = [];
    let instances = 0;
    let inServiceCopies: number | undefined = 0;
    for (const lane of LANES) {
      const reading = readings[lane];
      const lanePlan = planLaneConcurrency({
        endpoint: reading,
        requestsPerInstance: { [names[lane]]: requests },
        interactiveReserve: lane === "interactive" ? requests : 0,
        lanes: this.#options.lanes,
      });
      concurrency[lane] = lanePlan.concurrency[lane];
      instances += lanePlan.instances;
      if (lanePlan.doubt !== undefined) doubts.push(`${lane} component: ${lanePlan.doubt}`);
      const copies = reading?.variants[0];
      inServiceCopies =
        inServiceCopies === undefined || copies === undefined
          ? undefined
          : inServiceCopies + Math.max(0, copies.current ?? 0);
      components[lane] = {
        name: names[lane],
        reading,
        goal: this.#componentGoal(lane, reading, backlog[lane]),
      };
    }
    const plan: LaneConcurrencyPlan = {
      concurrency,
      basis: doubts.length === 0 ? "endpoint" : "minimum",
      instances,
      doubt: doubts.length === 0 ? undefined : doubts.join("; "),
    };
    const bulkCopies = readings.bulk?.variants[0]?.current;
    const backlogPerInstance =
      bulkCopies === undefined || backlog.bulk === undefined
        ? undefined
        : backlog.bulk / Math.max(1, bulkCopies);
    const changes = await this.#applyConcurrency(concurrency, attempt);
    return {
      endpoint: undefined,
      inServiceInstances: inServiceCopies,
      backlog,
      backlogPerInstance,
      goal: undefined,
      plan,
      changes,
      failures,
      components,
    };
  }

  /** The capacity rule on one lane's backlog and its component's copies in service. */
  #componentGoal(
    lane: Lane,
    reading: EndpointReading | undefined,
    backlog: number | undefined,
  ): GoalCapacityPlan | undefined {
    const copies = reading?.variants[0];
    if (copies === undefined || backlog === undefined) return undefined;
    const { goals } = this.#options;
    return planGoalCapacity({
      inService: Math.max(0, Math.min(copies.current ?? 0, copies.desired ?? 0)),
      demands: [{ backlog, goalSeconds: goals.goalSeconds[lane] }],
      secondsPerLine: goals.secondsPerLine,
      instanceStartSeconds: goals.instanceStartSeconds,
      maxInstances: goals.maxInstances,
    });
  }

  /** Sets each lane's event source concurrency that changes, lowered ones first. */
  async #applyConcurrency(
    concurrency: PerLane<number>,
    attempt: Attempt,
  ): Promise<Partial<Record<Lane, LaneConcurrencyChange>>> {
    const { eventSources } = this.#options;
    const current: Partial<Record<Lane, number | undefined>> = {};
    for (const lane of LANES) {
      // A value that cannot be read is set anyway: setting is idempotent, skipping it could strand a high one.
      current[lane] = await attempt(`read the ${lane} lane's concurrency`, () => eventSources.get(lane));
    }
    const order = [...LANES].sort(
      (a, b) => delta(current[a], concurrency[a]) - delta(current[b], concurrency[b]),
    );
    const changes: Partial<Record<Lane, LaneConcurrencyChange>> = {};
    for (const lane of order) {
      const from = current[lane];
      const to = concurrency[lane];
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
    return changes;
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

/** Runs one step of a check; a step that throws is recorded as a failure and gives undefined. */
type Attempt = <T>(step: string, read: () => Promise<T>) => Promise<T | undefined>;

/**
 * Each lane's value read by `read` under `attempt`, lane after lane in `LANES` order; a lane whose
 * read failed is left out (its failure is the attempt's).
 */
async function readEachLane<T>(
  attempt: Attempt,
  step: (lane: Lane) => string,
  read: (lane: Lane) => Promise<T>,
): Promise<Partial<Record<Lane, T>>> {
  const readings: Partial<Record<Lane, T>> = {};
  for (const lane of LANES) {
    const reading = await attempt(step(lane), () => read(lane));
    if (reading !== undefined) readings[lane] = reading;
  }
  return readings;
}

/** How much a lane's concurrency rises (negative: falls); an unknown value sorts as a fall, first. */
function delta(from: number | undefined, to: number): number {
  return from === undefined ? Number.NEGATIVE_INFINITY : to - from;
}
