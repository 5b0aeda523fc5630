import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CallLatencyEstimate } from "../../../core/flow/CallLatencyEstimate.js";

describe("CallLatencyEstimate", () => {
  it("needs nothing before a call was served, then headroom × the moving average", () => {
    const latency = new CallLatencyEstimate({ weight: 0.5, headroom: 1.5 });
    assert.equal(latency.neededMs(), 0);
    latency.observe(1_000);
    assert.equal(latency.neededMs(), 1_500);
    latency.observe(3_000);
    assert.equal(latency.averageMs(), 2_000);
    assert.equal(latency.neededMs(), 3_000);
  });

  it("ignores what is not a duration and refuses settings without meaning", () => {
    const latency = new CallLatencyEstimate();
    latency.observe(Number.NaN);
    latency.observe(-5);
    assert.equal(latency.averageMs(), undefined);
    assert.throws(() => new CallLatencyEstimate({ weight: 0 }), RangeError);
    assert.throws(() => new CallLatencyEstimate({ headroom: 0.5 }), RangeError);
  });
});
