import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { decideMaxConcurrency } from "../../../infra/index.js";

describe("decideMaxConcurrency", () => {
  it("divides the endpoint's maximum capacity by the groups one invocation has in flight", () => {
    assert.equal(
      decideMaxConcurrency({ maxInstances: 2, requestsPerInstance: 9, groupsPerInvocation: 4 }),
      4,
    );
    assert.equal(
      decideMaxConcurrency({ maxInstances: 10, requestsPerInstance: 9, groupsPerInvocation: 3 }),
      30,
    );
  });

  it("keeps to the event source's range of 2 to 1000", () => {
    assert.equal(
      decideMaxConcurrency({ maxInstances: 1, requestsPerInstance: 1, groupsPerInvocation: 4 }),
      2,
    );
    assert.equal(
      decideMaxConcurrency({ maxInstances: 100, requestsPerInstance: 100, groupsPerInvocation: 1 }),
      1000,
    );
  });

  it("never puts more calls in flight than the endpoint admits, unless the minimum of 2 forces it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 64 }),
        (maxInstances, requestsPerInstance, groupsPerInvocation) => {
          const concurrency = decideMaxConcurrency({
            maxInstances,
            requestsPerInstance,
            groupsPerInvocation,
          });
          const capacity = maxInstances * requestsPerInstance;
          assert.ok(concurrency >= 2 && concurrency <= 1000);
          if (concurrency > 2) assert.ok(concurrency * groupsPerInvocation <= capacity);
          if (concurrency < 1000)
            assert.ok((concurrency + 1) * groupsPerInvocation > capacity || concurrency === 2);
        },
      ),
    );
  });
});
