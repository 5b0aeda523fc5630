import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  DecideCapacityError,
  deriveDecideCapacity,
  deriveLaneCapacity,
  SQS_MAX_CONCURRENCY_RANGE,
} from "../../../infra/index.js";

describe("deriveLaneCapacity", () => {
  it("sizes one lane for its calls: the event source's minimum of 2 invocations, then as many groups as fit", () => {
    assert.deepEqual(deriveLaneCapacity(9, 4), {
      calls: 9,
      maxConcurrency: 2,
      groupsPerInvocation: 4,
      callsInFlight: 8,
    });
    assert.deepEqual(deriveLaneCapacity(18, 3), {
      calls: 18,
      maxConcurrency: 6,
      groupsPerInvocation: 3,
      callsInFlight: 18,
    });
    assert.deepEqual(deriveLaneCapacity(5, 4), {
      calls: 5,
      maxConcurrency: 2,
      groupsPerInvocation: 2,
      callsInFlight: 4,
    });
  });

  it("refuses fewer than 2 calls", () => {
    assert.throws(() => deriveLaneCapacity(1, 4), DecideCapacityError);
  });
});

describe("deriveDecideCapacity", () => {
  it("gives the interactive lane the reserved places and the bulk lane the rest, at minimum capacity", () => {
    const capacity = deriveDecideCapacity({
      minInstances: 1,
      requestsPerInstanceByPool: [9],
      interactiveReservePerInstance: 2,
      configuredGroupsPerInvocation: 4,
    });

    assert.deepEqual(capacity, {
      admittedAtMinimum: 9,
      reserved: 2,
      lanes: {
        interactive: { calls: 2, maxConcurrency: 2, groupsPerInvocation: 1, callsInFlight: 2 },
        bulk: { calls: 7, maxConcurrency: 2, groupsPerInvocation: 3, callsInFlight: 6 },
      },
    });
  });

  it("fits both lanes on one CPU instance at the defaults (4 requests per instance, reserve 2): 2 × 1 each", () => {
    const capacity = deriveDecideCapacity({
      minInstances: 1,
      requestsPerInstanceByPool: [4],
      interactiveReservePerInstance: 2,
      configuredGroupsPerInvocation: 4,
    });

    assert.deepEqual(capacity.lanes.interactive, {
      calls: 2,
      maxConcurrency: 2,
      groupsPerInvocation: 1,
      callsInFlight: 2,
    });
    assert.deepEqual(capacity.lanes.bulk, {
      calls: 2,
      maxConcurrency: 2,
      groupsPerInvocation: 1,
      callsInFlight: 2,
    });
  });

  it("takes the smallest pool: at minimum capacity the instance may be the CPU fallback", () => {
    const capacity = deriveDecideCapacity({
      minInstances: 1,
      requestsPerInstanceByPool: [9, 9, 9, 4],
      interactiveReservePerInstance: 2,
      configuredGroupsPerInvocation: 4,
    });

    assert.equal(capacity.admittedAtMinimum, 4);
    assert.equal(capacity.lanes.bulk.calls, 2);
  });

  it("scales both shares with the minimum instances: the reserve is per instance", () => {
    const capacity = deriveDecideCapacity({
      minInstances: 2,
      requestsPerInstanceByPool: [9],
      interactiveReservePerInstance: 2,
      configuredGroupsPerInvocation: 3,
    });

    assert.deepEqual([capacity.admittedAtMinimum, capacity.reserved], [18, 4]);
    assert.deepEqual(capacity.lanes.interactive, {
      calls: 4,
      maxConcurrency: 2,
      groupsPerInvocation: 2,
      callsInFlight: 4,
    });
    assert.deepEqual(capacity.lanes.bulk, {
      calls: 14,
      maxConcurrency: 4,
      groupsPerInvocation: 3,
      callsInFlight: 12,
    });
  });

  it("refuses a reserve that leaves the interactive lane fewer than 2 calls, naming the reserve", () => {
    assert.throws(
      () =>
        deriveDecideCapacity({
          minInstances: 1,
          requestsPerInstanceByPool: [9],
          interactiveReservePerInstance: 1,
          configuredGroupsPerInvocation: 4,
        }),
      (error: unknown) =>
        error instanceof DecideCapacityError &&
        error.lane === "interactive" &&
        error.calls === 1 &&
        /interactive lane.*raise interactiveReservePerInstance or minInstances/.test(error.message),
    );
  });

  it("refuses requests per instance that leave the bulk lane fewer than 2 calls, naming what to raise or lower", () => {
    // The old CPU default: 3 places, 2 reserved, 1 left for bulk.
    assert.throws(
      () =>
        deriveDecideCapacity({
          minInstances: 1,
          requestsPerInstanceByPool: [9, 3],
          interactiveReservePerInstance: 2,
          configuredGroupsPerInvocation: 4,
        }),
      (error: unknown) =>
        error instanceof DecideCapacityError &&
        error.lane === "bulk" &&
        error.calls === 1 &&
        /bulk lane.*raise the smallest pool's requests per instance \(cpuRequestsPerInstance or gpuRequestsPerInstance\) or minInstances, or lower interactiveReservePerInstance/.test(
          error.message,
        ),
    );
  });

  it("refuses an endpoint without pools", () => {
    assert.throws(
      () =>
        deriveDecideCapacity({
          minInstances: 1,
          requestsPerInstanceByPool: [],
          interactiveReservePerInstance: 2,
          configuredGroupsPerInvocation: 4,
        }),
      (error: unknown) => error instanceof DecideCapacityError && error.lane === undefined,
    );
  });

  it("never has more calls in flight than the endpoint admits at minimum capacity, interactive within the reserve, each lane 2–1000 invocations", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 64 }),
        (
          minInstances,
          requestsPerInstanceByPool,
          interactiveReservePerInstance,
          configuredGroupsPerInvocation,
        ) => {
          const inputs = {
            minInstances,
            requestsPerInstanceByPool,
            interactiveReservePerInstance,
            configuredGroupsPerInvocation,
          };
          const admitted = minInstances * Math.min(...requestsPerInstanceByPool);
          const reserved = minInstances * interactiveReservePerInstance;
          if (reserved < 2 || admitted - reserved < 2) {
            assert.throws(() => deriveDecideCapacity(inputs), DecideCapacityError);
            return;
          }
          const capacity = deriveDecideCapacity(inputs);
          const { interactive, bulk } = capacity.lanes;
          assert.equal(capacity.admittedAtMinimum, admitted);
          assert.ok(interactive.callsInFlight <= reserved);
          assert.ok(interactive.callsInFlight + bulk.callsInFlight <= admitted);
          // The adapter admits bulk calls up to requests per instance − reserve on each instance.
          assert.ok(bulk.callsInFlight <= admitted - reserved);
          for (const lane of [interactive, bulk]) {
            assert.ok(lane.maxConcurrency >= SQS_MAX_CONCURRENCY_RANGE.min);
            assert.ok(lane.maxConcurrency <= SQS_MAX_CONCURRENCY_RANGE.max);
            assert.ok(
              lane.groupsPerInvocation >= 1 && lane.groupsPerInvocation <= configuredGroupsPerInvocation,
            );
            // Nothing left idle that would still fit (unless the event source's ceiling binds).
            if (lane.maxConcurrency < SQS_MAX_CONCURRENCY_RANGE.max)
              assert.ok((lane.maxConcurrency + 1) * lane.groupsPerInvocation > lane.calls);
          }
        },
      ),
    );
  });
});
