import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { laneShares, sizeLaneShare } from "../../../contract/lanes/laneShares.js";
import { planLaneConcurrency } from "../../../core/capacity/planLaneConcurrency.js";
import { deriveDecideCapacity } from "../../../infra/capacity/deriveDecideCapacity.js";
import { deriveLocalLaneCapacity } from "../../../local/stack/deriveLocalLaneCapacity.js";

describe("laneShares", () => {
  it("gives interactive the reserved places and bulk the rest, per instance", () => {
    assert.deepEqual(laneShares({ instances: 1, requestsPerInstance: 9, interactiveReservePerInstance: 2 }), {
      interactive: 2,
      bulk: 7,
    });
    assert.deepEqual(laneShares({ instances: 3, requestsPerInstance: 4, interactiveReservePerInstance: 2 }), {
      interactive: 6,
      bulk: 6,
    });
  });
});

describe("sizeLaneShare", () => {
  it("fits two invocations and spends the rest on groups", () => {
    assert.deepEqual(sizeLaneShare(7, 4), { groupsPerInvocation: 3, maxConcurrency: 2 });
    assert.deepEqual(sizeLaneShare(2, 4), { groupsPerInvocation: 1, maxConcurrency: 2 });
    assert.deepEqual(sizeLaneShare(5000, 1), { groupsPerInvocation: 1, maxConcurrency: 1000 });
  });
});

describe("the three readers of the lane shares", () => {
  it("size both lanes alike for one instance admitting 9 with 2 reserved", () => {
    const deployed = deriveDecideCapacity({
      minInstances: 1,
      requestsPerInstanceByPool: [9],
      interactiveReservePerInstance: 2,
      configuredGroupsPerInvocation: 4,
    }).lanes;
    const local = deriveLocalLaneCapacity({ running: 1, waiting: 8, interactiveReserve: 2 }, 4);
    const controlled = planLaneConcurrency({
      endpoint: { status: "InService", variants: [{ name: "AllTraffic", current: 1, desired: 1 }] },
      requestsPerInstance: { AllTraffic: 9 },
      interactiveReserve: 2,
      lanes: {
        interactive: { groupsPerInvocation: deployed.interactive.groupsPerInvocation, minConcurrency: 2 },
        bulk: { groupsPerInvocation: deployed.bulk.groupsPerInvocation, minConcurrency: 2 },
      },
    }).concurrency;

    for (const lane of ["interactive", "bulk"] as const) {
      assert.equal(local[lane].maximumConcurrency, deployed[lane].maxConcurrency, lane);
      assert.equal(local[lane].maxConcurrentGroups, deployed[lane].groupsPerInvocation, lane);
      assert.equal(controlled[lane], deployed[lane].maxConcurrency, lane);
    }
  });
});
