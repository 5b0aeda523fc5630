import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EndpointReading } from "../../../functions/capacityController/index.js";
import {
  type LaneConcurrencyInputs,
  planLaneConcurrency,
} from "../../../functions/capacityController/index.js";

/** One CPU instance admits 4 (2 reserved): at minimum each lane runs 2 invocations × 1 group. */
function inputs(endpoint: EndpointReading | undefined, overrides: Partial<LaneConcurrencyInputs> = {}) {
  return {
    endpoint,
    requestsPerInstance: { AllTraffic: 4 },
    interactiveReserve: 2,
    lanes: {
      interactive: { groupsPerInvocation: 1, minConcurrency: 2 },
      bulk: { groupsPerInvocation: 1, minConcurrency: 2 },
    },
    ...overrides,
  } satisfies LaneConcurrencyInputs;
}

const inService = (current: number, desired: number): EndpointReading => ({
  status: "InService",
  variants: [{ name: "AllTraffic", current, desired }],
});

describe("planLaneConcurrency", () => {
  it("follows a scale-out only as far as the instances in service", () => {
    // Prepare: autoscaling asked for 20 instances, 5 are in service.
    const plan = planLaneConcurrency(inputs(inService(5, 20)));

    // Assert: 5 instances × (4 − 2) bulk places, 5 × 2 interactive ones.
    assert.deepEqual(plan.concurrency, { interactive: 10, bulk: 10 });
    assert.equal(plan.basis, "endpoint");
    assert.equal(plan.instances, 5);
  });

  it("lowers the concurrency as soon as a scale-in is asked for, before the instances go", () => {
    // 20 instances still in service, autoscaling wants 3.
    const plan = planLaneConcurrency(inputs(inService(20, 3)));

    assert.deepEqual(plan.concurrency, { interactive: 6, bulk: 6 });
    assert.equal(plan.instances, 3);
  });

  it("divides each lane's places by its groups per invocation, rounding down", () => {
    // GPU instances admit 9 (2 reserved): 7 bulk places each; bulk runs 3 groups per invocation.
    const plan = planLaneConcurrency(
      inputs(
        { status: "InService", variants: [{ name: "AllTraffic", current: 4, desired: 4 }] },
        {
          requestsPerInstance: { AllTraffic: 9 },
          lanes: {
            interactive: { groupsPerInvocation: 1, minConcurrency: 2 },
            bulk: { groupsPerInvocation: 3, minConcurrency: 2 },
          },
        },
      ),
    );

    assert.deepEqual(plan.concurrency, { interactive: 8, bulk: 9 }); // floor(28 / 3) = 9
  });

  it("clamps to the event source's range of 2 to 1000", () => {
    const many = planLaneConcurrency(inputs(inService(600, 600)));
    assert.deepEqual(many.concurrency, { interactive: 1000, bulk: 1000 });

    const none = planLaneConcurrency(
      inputs(inService(0, 0), {
        lanes: {
          interactive: { groupsPerInvocation: 1, minConcurrency: 1 },
          bulk: { groupsPerInvocation: 1, minConcurrency: 1 },
        },
      }),
    );
    assert.deepEqual(none.concurrency, { interactive: 2, bulk: 2 });
  });

  it("never goes below each lane's concurrency at minimum capacity", () => {
    // Minimum capacity is 2 instances (4 calls a lane); one instance failed and is being replaced.
    const plan = planLaneConcurrency(
      inputs(inService(1, 2), {
        lanes: {
          interactive: { groupsPerInvocation: 1, minConcurrency: 4 },
          bulk: { groupsPerInvocation: 1, minConcurrency: 4 },
        },
      }),
    );

    assert.deepEqual(plan.concurrency, { interactive: 4, bulk: 4 });
  });

  it("sums the variants it knows and leaves out those it does not", () => {
    const plan = planLaneConcurrency(
      inputs(
        {
          status: "InService",
          variants: [
            { name: "AllTraffic", current: 3, desired: 3 },
            { name: "Shadow", current: 10, desired: 10 },
          ],
        },
        { requestsPerInstance: { AllTraffic: 4 } },
      ),
    );

    assert.deepEqual(plan.concurrency, { interactive: 6, bulk: 6 });
    assert.equal(plan.instances, 3);
  });

  for (const status of ["Updating", "SystemUpdating", "RollingBack", "Failed", "OutOfService"]) {
    it(`keeps the values at minimum capacity while the endpoint is ${status}`, () => {
      const plan = planLaneConcurrency(inputs({ ...inService(20, 20), status }));

      assert.deepEqual(plan.concurrency, { interactive: 2, bulk: 2 });
      assert.equal(plan.basis, "minimum");
      assert.match(plan.doubt ?? "", new RegExp(status));
    });
  }

  it("keeps the values at minimum capacity when the endpoint was not read", () => {
    const plan = planLaneConcurrency(inputs(undefined));

    assert.deepEqual(plan.concurrency, { interactive: 2, bulk: 2 });
    assert.equal(plan.basis, "minimum");
  });

  it("keeps the values at minimum capacity when a configured variant is missing or has no counts", () => {
    const missing = planLaneConcurrency(
      inputs({ status: "InService", variants: [{ name: "Other", current: 20, desired: 20 }] }),
    );
    assert.equal(missing.basis, "minimum");
    assert.match(missing.doubt ?? "", /no variant AllTraffic/);

    const noCounts = planLaneConcurrency(
      inputs({ status: "InService", variants: [{ name: "AllTraffic", current: 20, desired: undefined }] }),
    );
    assert.deepEqual(noCounts.concurrency, { interactive: 2, bulk: 2 });
    assert.equal(noCounts.basis, "minimum");
  });
});
