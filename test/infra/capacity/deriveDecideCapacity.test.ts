import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DecideCapacityError, deriveDecideCapacity } from "../../../infra/index.js";

describe("deriveDecideCapacity", () => {
  it("sizes the function for the one instance at minimum capacity, not for the autoscaling ceiling", () => {
    // The case of the backlog issue: 9 slots at minimum capacity, 4 groups per invocation.
    assert.deepEqual(
      deriveDecideCapacity({
        minInstances: 1,
        requestsPerInstanceByPool: [9],
        configuredGroupsPerInvocation: 4,
      }),
      { admittedAtMinimum: 9, maxConcurrency: 2, groupsPerInvocation: 4, callsInFlight: 8 },
    );
    assert.deepEqual(
      deriveDecideCapacity({
        minInstances: 2,
        requestsPerInstanceByPool: [9],
        configuredGroupsPerInvocation: 3,
      }),
      { admittedAtMinimum: 18, maxConcurrency: 6, groupsPerInvocation: 3, callsInFlight: 18 },
    );
  });

  it("takes the smallest pool: at minimum capacity the instance may be the CPU fallback", () => {
    assert.deepEqual(
      deriveDecideCapacity({
        minInstances: 1,
        requestsPerInstanceByPool: [9, 9, 9, 3],
        configuredGroupsPerInvocation: 4,
      }),
      { admittedAtMinimum: 3, maxConcurrency: 3, groupsPerInvocation: 1, callsInFlight: 3 },
    );
  });

  it("lowers the groups per invocation so that the event source's minimum of 2 invocations fits", () => {
    const capacity = deriveDecideCapacity({
      minInstances: 1,
      requestsPerInstanceByPool: [5],
      configuredGroupsPerInvocation: 4,
    });
    assert.equal(capacity.groupsPerInvocation, 2);
    assert.equal(capacity.maxConcurrency, 2);
  });

  it("refuses an endpoint that admits fewer than 2 requests at minimum capacity", () => {
    assert.throws(
      () =>
        deriveDecideCapacity({
          minInstances: 1,
          requestsPerInstanceByPool: [1],
          configuredGroupsPerInvocation: 1,
        }),
      (error: unknown) => error instanceof DecideCapacityError && /minInstances/.test(error.message),
    );
  });

  it("never puts more calls in flight than the endpoint admits at minimum capacity, and keeps to 2–1000", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.integer({ min: 2, max: 200 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 64 }),
        (minInstances, requestsPerInstanceByPool, configuredGroupsPerInvocation) => {
          const capacity = deriveDecideCapacity({
            minInstances,
            requestsPerInstanceByPool,
            configuredGroupsPerInvocation,
          });
          const admitted = minInstances * Math.min(...requestsPerInstanceByPool);
          assert.equal(capacity.admittedAtMinimum, admitted);
          assert.ok(capacity.maxConcurrency >= 2 && capacity.maxConcurrency <= 1000);
          assert.ok(capacity.groupsPerInvocation >= 1);
          assert.ok(capacity.groupsPerInvocation <= configuredGroupsPerInvocation);
          assert.ok(capacity.callsInFlight <= admitted);
          // Nothing is left idle that would still fit (unless the event source's ceiling binds).
          if (capacity.maxConcurrency < 1000)
            assert.ok((capacity.maxConcurrency + 1) * capacity.groupsPerInvocation > admitted);
        },
      ),
    );
  });
});
