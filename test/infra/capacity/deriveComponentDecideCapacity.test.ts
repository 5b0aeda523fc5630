import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveComponentDecideCapacity } from "../../../infra/capacity/deriveComponentDecideCapacity.js";

describe("deriveComponentDecideCapacity", () => {
  it("sizes the interactive lane on its copies at their floor, every place its own", () => {
    const { lanes } = deriveComponentDecideCapacity({
      interactiveMinCopies: 2,
      requestsPerCopy: 4,
      configuredGroupsPerInvocation: 4,
    });

    assert.deepEqual(lanes.interactive, {
      calls: 8,
      maxConcurrency: 2,
      groupsPerInvocation: 4,
      callsInFlight: 8,
    });
  });

  it("gives a lane without copies at its floor the event source's floor of 2 invocations of 1 call, which finds no copy and scales it from zero", () => {
    const { lanes, reserved } = deriveComponentDecideCapacity({
      interactiveMinCopies: 0,
      requestsPerCopy: 4,
      configuredGroupsPerInvocation: 4,
    });

    for (const lane of [lanes.bulk, lanes.interactive]) {
      assert.deepEqual(lane, { calls: 0, maxConcurrency: 2, groupsPerInvocation: 1, callsInFlight: 2 });
    }
    assert.equal(reserved, 0);
  });
});
