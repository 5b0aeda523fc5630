import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Lane } from "../../../contract/lanes/lanes.js";
import {
  CapacityController,
  type EndpointReading,
  type LaneConcurrencySetter,
} from "../../../functions/capacityController/index.js";

/** Event sources in memory, recording every set in order. */
class FakeEventSources implements LaneConcurrencySetter {
  readonly sets: Array<[Lane, number]> = [];
  constructor(
    readonly values: Record<Lane, number | undefined>,
    readonly failing: ReadonlySet<Lane> = new Set(),
  ) {}
  async get(lane: Lane): Promise<number | undefined> {
    return this.values[lane];
  }
  async set(lane: Lane, value: number): Promise<void> {
    if (this.failing.has(lane)) throw new Error(`ResourceInUseException on ${lane}`);
    this.sets.push([lane, value]);
    this.values[lane] = value;
  }
}

function controller(
  read: () => Promise<EndpointReading>,
  eventSources: FakeEventSources,
  backlog: Partial<Record<Lane, number>> = { interactive: 3, bulk: 12_000 },
) {
  return new CapacityController({
    endpoint: { read },
    queues: {
      visibleMessages: async (lane) => {
        const value = backlog[lane];
        if (value === undefined) throw new Error(`AccessDenied on the ${lane} queue`);
        return value;
      },
    },
    eventSources,
    requestsPerInstance: { AllTraffic: 4 },
    interactiveReserve: 2,
    lanes: {
      interactive: { groupsPerInvocation: 1, minConcurrency: 2 },
      bulk: { groupsPerInvocation: 2, minConcurrency: 2 },
    },
    goals: {
      goalSeconds: { interactive: 60, bulk: 3600 },
      secondsPerLine: 0.312,
      instanceStartSeconds: 360,
      maxInstances: 20,
    },
  });
}

const endpoint =
  (status: string, current: number, desired: number) => async (): Promise<EndpointReading> => ({
    status,
    variants: [{ name: "AllTraffic", current, desired }],
  });

describe("CapacityController", () => {
  it("raises both lanes to what the instances in service admit and reports the backlog per instance", async () => {
    // Prepare: 10 instances in service, the lanes still at their minimum values.
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 });

    // Act
    const check = await controller(endpoint("InService", 10, 10), sources).check();

    // Assert: interactive 10 × 2 / 1 group, bulk 10 × 2 / 2 groups; 12,000 bulk messages ÷ 10.
    assert.deepEqual(sources.values, { interactive: 20, bulk: 10 });
    assert.equal(check.backlogPerInstance, 1200);
    assert.equal(check.inServiceInstances, 10);
    assert.deepEqual(check.backlog, { interactive: 3, bulk: 12_000 });
    assert.deepEqual(check.failures, []);
  });

  it("plans the instances the goals want on both lanes' backlogs and the instances in service", async () => {
    // Prepare: 1 instance in service, 12,000 bulk lines at 0.312 s = 3,744 s of work: more than
    // one instance drains within the 60-minute goal less the 4-minute reaction (3,360 s).
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 });

    // Act
    const check = await controller(endpoint("InService", 1, 1), sources, {
      interactive: 0,
      bulk: 12_000,
    }).check();

    // Assert: one more instance, asked for as (2 − ½) ÷ 1 in service
    assert.equal(check.goal?.reason, "buy");
    assert.equal(check.goal?.wanted, 2);
    assert.equal(check.goal?.ratio, 1.5);
  });

  it("plans nothing when the endpoint or a queue was not read (no data point for the goal policy)", async () => {
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 });

    const check = await controller(endpoint("InService", 1, 1), sources, { interactive: 0 }).check();

    assert.equal(check.goal, undefined);
  });

  it("sets nothing when the values do not change", async () => {
    const sources = new FakeEventSources({ interactive: 20, bulk: 10 });

    const check = await controller(endpoint("InService", 10, 10), sources).check();

    assert.deepEqual(sources.sets, []);
    assert.equal(check.changes.bulk?.updated, false);
  });

  it("lowers a lane before it raises the other", async () => {
    // Prepare: interactive was raised earlier, bulk was left low; now 4 instances.
    const sources = new FakeEventSources({ interactive: 20, bulk: 2 });

    await controller(endpoint("InService", 4, 4), sources).check();

    assert.deepEqual(sources.sets, [
      ["interactive", 8],
      ["bulk", 4],
    ]);
  });

  it("returns the lanes to their minimum values while the endpoint updates, and still publishes the backlog", async () => {
    const sources = new FakeEventSources({ interactive: 20, bulk: 10 });

    const check = await controller(endpoint("Updating", 10, 2), sources).check();

    assert.deepEqual(sources.values, { interactive: 2, bulk: 2 });
    assert.equal(check.plan.basis, "minimum");
    assert.equal(check.backlogPerInstance, 1200);
  });

  it("returns the lanes to their minimum values when the endpoint cannot be read, and records the failure", async () => {
    const sources = new FakeEventSources({ interactive: 20, bulk: 10 });
    const failing = async (): Promise<EndpointReading> => {
      throw new Error("AccessDeniedException");
    };

    const check = await controller(failing, sources).check();

    assert.deepEqual(sources.values, { interactive: 2, bulk: 2 });
    assert.equal(check.backlogPerInstance, undefined);
    assert.deepEqual(
      check.failures.map((failure) => failure.step),
      ["read the endpoint"],
    );
  });

  it("divides the backlog by one when no instance is in service", async () => {
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 });

    const check = await controller(endpoint("InService", 0, 1), sources, {
      interactive: 0,
      bulk: 50,
    }).check();

    assert.equal(check.backlogPerInstance, 50);
  });

  it("still sets the lanes when a queue cannot be read, and sets the other lane when one set fails", async () => {
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 }, new Set<Lane>(["interactive"]));

    const check = await controller(endpoint("InService", 10, 10), sources, { interactive: 1 }).check();

    assert.equal(sources.values.bulk, 10);
    assert.equal(check.backlogPerInstance, undefined);
    assert.equal(check.changes.interactive, undefined);
    assert.deepEqual(
      check.failures.map((failure) => failure.step),
      ["read the bulk queue", "set the interactive lane's concurrency to 20"],
    );
  });
});

describe("CapacityController with a component per lane", () => {
  const names = { interactive: "decisions-52ab4287-interactive", bulk: "decisions-52ab4287-bulk" };
  const withComponents = (
    read: (lane: Lane) => Promise<EndpointReading>,
    eventSources: FakeEventSources,
    backlog: Record<Lane, number>,
  ) =>
    new CapacityController({
      endpoint: {
        read: async () => {
          throw new Error("the endpoint is not read with components");
        },
      },
      components: { reader: { read }, names },
      queues: { visibleMessages: async (lane) => backlog[lane] },
      eventSources,
      requestsPerInstance: { AllTraffic: 4 },
      interactiveReserve: 2,
      lanes: {
        interactive: { groupsPerInvocation: 1, minConcurrency: 2 },
        bulk: { groupsPerInvocation: 2, minConcurrency: 2 },
      },
      goals: {
        goalSeconds: { interactive: 60, bulk: 3600 },
        secondsPerLine: 0.312,
        instanceStartSeconds: 360,
        maxInstances: 20,
      },
    });
  const copies =
    (current: number, desired: number) =>
    async (lane: Lane): Promise<EndpointReading> => ({
      status: "InService",
      variants: [{ name: names[lane], current, desired }],
    });

  it("gives each lane every place of its own copies and plans each component on its own backlog", async () => {
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 });

    const check = await withComponents(copies(5, 5), sources, { interactive: 0, bulk: 100_000 }).check();

    // Interactive 5 copies × 4 places ÷ 1 group; bulk 5 × 4 ÷ 2 groups (no reserve on either).
    assert.deepEqual(sources.values, { interactive: 20, bulk: 10 });
    assert.deepEqual(check.failures, []);
    assert.equal(check.components?.interactive.goal?.reason, "idle");
    assert.equal(check.components?.bulk.goal?.reason, "buy");
    assert.equal(check.backlogPerInstance, 20_000);
    assert.equal(check.endpoint, undefined);
  });

  it("keeps a lane whose component cannot be read at its minimum, with no goal plan, and sizes the other", async () => {
    const sources = new FakeEventSources({ interactive: 2, bulk: 2 });
    const read = async (lane: Lane) => {
      if (lane === "bulk") throw new Error("AccessDeniedException");
      return copies(3, 3)(lane);
    };

    const check = await withComponents(read, sources, { interactive: 1, bulk: 500 }).check();

    assert.deepEqual(sources.values, { interactive: 12, bulk: 2 });
    assert.equal(check.components?.bulk.goal, undefined);
    assert.equal(check.plan.basis, "minimum");
    assert.deepEqual(
      check.failures.map((failure) => failure.step),
      ["read the bulk inference component"],
    );
  });
});
