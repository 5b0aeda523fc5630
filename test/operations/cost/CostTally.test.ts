import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CostTally, UNRECORDED_LANE } from "../../../operations/cost/index.js";

describe("CostTally", () => {
  it("prices the endpoint seconds per decision at the instance price, per 1,000 decisions", () => {
    const tally = new CostTally();
    // Two items shared a 2 s request; one item had a 1 s request of its own: 3 s over 3 decisions.
    const shared = {
      group_size: 2,
      input_tokens: 400,
      evaluated_tokens: 100,
      cached_tokens: 300,
      endpoint_ms: 2000,
    };
    tally.add("tickets", shared);
    tally.add("tickets", shared);
    tally.add("tickets", {
      group_size: 1,
      input_tokens: 100,
      evaluated_tokens: 100,
      cached_tokens: 0,
      endpoint_ms: 1000,
    });

    const report = tally.report(3.6);

    assert.equal(report.decisions, 3);
    // Each shared item counts 400 / 2 tokens: (200 + 200 + 100) / 3.
    assert.equal(report.tokens_per_decision, 166.67);
    assert.equal(report.evaluated_tokens_per_decision, 66.67);
    assert.equal(report.cached_tokens_per_decision, 100);
    assert.equal(report.cache_share, 0.6);
    assert.equal(report.endpoint_seconds_per_decision, 1);
    // 1 s per decision × 1,000 decisions at $3.60/h = $0.001/s → $1.
    assert.equal(report.usd_per_1000, 1);
    assert.equal(report.instance_price_usd_per_hour, 3.6);
  });

  it("splits by policy and by lane, lanes not recorded under their own key, and counts what it leaves out", () => {
    const tally = new CostTally();
    tally.add("tickets", {
      group_size: 1,
      input_tokens: 100,
      evaluated_tokens: 25,
      cached_tokens: 75,
      endpoint_ms: 500,
      lane: "interactive",
    });
    tally.add("docs", {
      group_size: 1,
      input_tokens: 300,
      evaluated_tokens: 300,
      cached_tokens: 0,
      endpoint_ms: 1500,
      lane: "bulk",
    });
    tally.add("docs", { group_size: 1, input_tokens: 100, endpoint_ms: 500 });
    tally.add("docs", undefined);

    const report = tally.report(0);

    assert.deepEqual(Object.keys(report.by_policy), ["docs", "tickets"]);
    assert.deepEqual(Object.keys(report.by_lane), ["bulk", "interactive", UNRECORDED_LANE]);
    assert.equal(report.by_policy.docs?.decisions, 2);
    assert.equal(report.by_policy.docs?.tokens_per_decision, 200);
    assert.equal(report.by_policy.tickets?.cache_share, 0.75);
    assert.equal(report.by_lane.bulk?.endpoint_seconds_per_decision, 1.5);
    assert.equal(
      report.by_lane[UNRECORDED_LANE]?.cache_share,
      null,
      "no evaluated or cached counts: no share",
    );
    assert.equal(report.without_usage, 1);
    assert.equal(report.usd_per_1000, 0);
    // cached ÷ (cached + evaluated) over all: 75 / (75 + 325).
    assert.equal(report.cache_share, 0.1875);
  });

  it("reports zeros, not NaN, for no decisions, and refuses a price that is not a number ≥ 0", () => {
    const tally = new CostTally();
    const report = tally.report(1.2);
    assert.equal(report.decisions, 0);
    assert.equal(report.tokens_per_decision, 0);
    assert.equal(report.usd_per_1000, 0);
    assert.equal(report.cache_share, null);
    assert.throws(() => tally.report(-1), RangeError);
    assert.throws(() => tally.report(Number.NaN), RangeError);
  });
});
