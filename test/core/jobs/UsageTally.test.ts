import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { UsageTally } from "../../../core/jobs/index.js";

describe("UsageTally", () => {
  it("sums each decision's share of its request: a request shared by a group counts once over it", () => {
    const tally = new UsageTally();
    const shared = {
      group_size: 3,
      input_tokens: 300,
      evaluated_tokens: 120,
      cached_tokens: 240,
      endpoint_ms: 900,
    };
    const own = { group_size: 1, input_tokens: 50, evaluated_tokens: 50, cached_tokens: 0, endpoint_ms: 100 };

    for (let item = 0; item < 3; item += 1) tally.add(shared);
    tally.add(own);

    assert.deepEqual(tally.total(), {
      decisions: 4,
      input_tokens: 350,
      evaluated_tokens: 170,
      cached_tokens: 240,
      endpoint_seconds: 1,
    });
  });

  it("leaves out decisions without usage and counts missing evaluated, cached and time as none", () => {
    const tally = new UsageTally();

    tally.add(undefined);
    tally.add({ group_size: 2, input_tokens: 11 });

    assert.deepEqual(tally.total(), {
      decisions: 1,
      input_tokens: 5.5,
      evaluated_tokens: 0,
      cached_tokens: 0,
      endpoint_seconds: 0,
    });
  });

  it("sums to the requests' own totals whenever every item of each group is added (property)", () => {
    const request = fc.record({
      group_size: fc.integer({ min: 1, max: 7 }),
      input_tokens: fc.integer({ min: 0, max: 5000 }),
      evaluated_tokens: fc.integer({ min: 0, max: 5000 }),
      cached_tokens: fc.integer({ min: 0, max: 5000 }),
      endpoint_ms: fc.integer({ min: 0, max: 60_000 }),
    });
    fc.assert(
      fc.property(fc.array(request, { maxLength: 20 }), (requests) => {
        const tally = new UsageTally();
        for (const usage of requests) for (let item = 0; item < usage.group_size; item += 1) tally.add(usage);
        const sum = (key: "input_tokens" | "evaluated_tokens" | "cached_tokens" | "endpoint_ms") =>
          requests.reduce((total, usage) => total + usage[key], 0);
        const exact = tally.exact();
        assert.equal(
          exact.decisions,
          requests.reduce((total, usage) => total + usage.group_size, 0),
        );
        for (const key of ["input_tokens", "evaluated_tokens", "cached_tokens"] as const)
          assert.ok(Math.abs(exact[key] - sum(key)) < 1e-6, key);
        assert.ok(Math.abs(exact.endpoint_seconds - sum("endpoint_ms") / 1000) < 1e-6);
      }),
    );
  });
});
