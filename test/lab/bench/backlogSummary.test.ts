/** The backlog bench's arithmetic and workload, without a stack. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { loadPolicies } from "../../../core/policy/index.js";
import { buildBacklogItems, groupKey } from "../../../lab/bench/backlog/buildBacklogItems.js";
import {
  type BacklogMeasurements,
  type BacklogRound,
  meetsBacklogGoal,
  summarizeBacklog,
} from "../../../lab/bench/backlog/summarizeBacklog.js";
import { loadWorkItemTemplates } from "../../../lab/chaos/loadWorkItemTemplates.js";

const measured: BacklogMeasurements = {
  items: 100,
  decided: 100,
  deadLettered: 0,
  lost: 0,
  notDrained: 0,
  endpointStatuses: [...Array<number>(76).fill(200), ...Array<number>(4).fill(503)],
  deliveries: 110,
  rounds: [
    { items: 34, decided: 34, drainS: 10, aloneDecisionsPerS: 3.6 },
    { items: 33, decided: 33, drainS: 3, aloneDecisionsPerS: 11 },
    { items: 33, decided: 33, drainS: 6, aloneDecisionsPerS: 6 },
  ],
};

describe("summarizeBacklog", () => {
  it("takes the median of each round's ratio to the adapter alone beside it, and counts refusals and retries", () => {
    const summary = summarizeBacklog(measured);

    // Rates 3.4, 11 and 5.5 per s against 3.6, 11 and 6 alone: ratios 0.944, 1 and 0.917.
    assert.deepEqual(summary.round_ratios, [0.944, 1, 0.917]);
    assert.equal(summary.goodput_ratio, 0.944);
    assert.equal(summary.pipeline_decisions_per_s, 5.5);
    assert.equal(summary.adapter_alone_decisions_per_s, 6);
    assert.equal(summary.drain_s, 19);
    assert.equal(summary.endpoint_calls, 80);
    assert.equal(summary.refused_share, 0.05);
    assert.equal(summary.retries_per_item, 0.04);
    assert.equal(summary.deliveries_per_item, 1.1);
    assert.equal(meetsBacklogGoal(summary), true);
  });

  it("misses the goal on a dead-lettered item, a queued one, too many refusals or too little goodput", () => {
    const miss = (overrides: Partial<BacklogMeasurements>) =>
      meetsBacklogGoal(summarizeBacklog({ ...measured, ...overrides }));

    assert.equal(miss({ deadLettered: 1, decided: 99 }), false);
    assert.equal(miss({ notDrained: 1, decided: 99 }), false);
    assert.equal(miss({ lost: 1, decided: 99 }), false);
    assert.equal(miss({ endpointStatuses: [...Array<number>(8).fill(200), 429, 503] }), false);
    const slow = measured.rounds.map((round) => ({ ...round, drainS: round.drainS * 1.25 }));
    assert.equal(miss({ rounds: slow }), false);
  });

  it("counts no calls as no refusals, and refuses what has no meaning", () => {
    assert.equal(summarizeBacklog({ ...measured, endpointStatuses: [] }).refused_share, 0);
    assert.throws(() => summarizeBacklog({ ...measured, items: 0 }), RangeError);
    assert.throws(() => summarizeBacklog({ ...measured, rounds: [] }), RangeError);
    const first = measured.rounds[0] as BacklogRound;
    assert.throws(() => summarizeBacklog({ ...measured, rounds: [{ ...first, drainS: 0 }] }), RangeError);
    assert.throws(
      () => summarizeBacklog({ ...measured, rounds: [{ ...first, aloneDecisionsPerS: 0 }] }),
      RangeError,
    );
  });
});

describe("buildBacklogItems", () => {
  it("covers every policy, shares some states among adjacent items, and gives every item its own id", async () => {
    const root = packageRoot();
    const policies = await loadPolicies(join(root, "policies"));
    const templates = await loadWorkItemTemplates(join(root, "events"), policies);

    const items = buildBacklogItems({
      templates,
      policies,
      count: 300,
      random: new SeededRandom(1),
      idPrefix: "b",
    });

    assert.equal(items.length, 300);
    assert.equal(new Set(items.map((item) => item.id)).size, 300);
    assert.deepEqual(new Set(items.map((item) => item.policy)), new Set(policies.names()));
    const shared = items.filter((item) => item.shared).length;
    assert.ok(shared > 60 && shared < 180, `${shared} of 300 share a state`);
    const groups = new Map<string, number>();
    for (const item of items) groups.set(groupKey(item), (groups.get(groupKey(item)) ?? 0) + 1);
    for (const item of items) assert.equal(item.shared, (groups.get(groupKey(item)) ?? 0) > 1);
    for (const item of items) {
      const body = JSON.parse(item.body) as { id: string; policy: string };
      assert.equal(body.id, item.id);
      assert.equal(body.policy, item.policy);
      assert.ok(item.body.includes(item.stateText));
    }
  });
});
