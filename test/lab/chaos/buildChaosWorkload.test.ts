/** The chaos workload: the promised shares of poison, duplicates and dual-policy ids, the same for a seed. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { WorkItemInput } from "../../../core/common/index.js";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { loadPolicies } from "../../../core/policy/index.js";
import { buildChaosWorkload, POISON_KINDS } from "../../../lab/chaos/buildChaosWorkload.js";
import { loadWorkItemTemplates } from "../../../lab/chaos/loadWorkItemTemplates.js";

describe("buildChaosWorkload", () => {
  let templates: WorkItemInput[];

  before(async () => {
    const policies = await loadPolicies(join(packageRoot(), "policies"));
    templates = await loadWorkItemTemplates(join(packageRoot(), "events"), policies);
  });

  it("sends exactly N messages with every poison kind, duplicates and one id under two policies", () => {
    const workload = buildChaosWorkload({ messages: 1000, random: new SeededRandom(5), templates });

    assert.equal(workload.messages.length, 1000);
    assert.equal(workload.counts.poison, 10);
    const origins = new Set(workload.items.map((item) => item.origin));
    for (const kind of POISON_KINDS) assert.ok(origins.has(kind), kind);
    const perItem = new Map<number, number>();
    for (const message of workload.messages) perItem.set(message.item, (perItem.get(message.item) ?? 0) + 1);
    assert.equal([...perItem.values()].filter((count) => count === 2).length, workload.counts.duplicates);
    const dualIds = workload.items.filter((item) => item.origin === "dual").map((item) => item.key?.id);
    assert.equal(new Set(dualIds).size, workload.counts.dualPairs);
    assert.equal(dualIds.length, 2 * workload.counts.dualPairs);
  });

  it("gives every valid item a key and its state's hash, and the same messages for the same seed", () => {
    const a = buildChaosWorkload({ messages: 200, random: new SeededRandom(9), templates });
    const b = buildChaosWorkload({ messages: 200, random: new SeededRandom(9), templates });

    assert.deepEqual(a, b);
    for (const item of a.items.filter((each) => each.kind === "valid")) {
      assert.ok(item.key !== undefined && item.stateSha256 !== undefined);
    }
  });

  it("sends to both lanes, interleaved, with poison in each and duplicated items across the lanes", () => {
    const workload = buildChaosWorkload({ messages: 150, random: new SeededRandom(7), templates });

    const { byLane, crossLane } = workload.counts;
    assert.equal(byLane.interactive + byLane.bulk, 150);
    assert.ok(byLane.interactive > 0 && byLane.bulk > byLane.interactive, JSON.stringify(byLane));
    const lanesOf = new Map<number, Set<string>>();
    for (const message of workload.messages)
      lanesOf.set(message.item, (lanesOf.get(message.item) ?? new Set()).add(message.lane));
    assert.ok(crossLane >= 1);
    assert.equal([...lanesOf.values()].filter((lanes) => lanes.size === 2).length, crossLane);
    const poisonLanes = new Set(
      workload.messages.filter((m) => workload.items[m.item]?.kind === "poison").map((m) => m.lane),
    );
    assert.deepEqual([...poisonLanes].sort(), ["bulk", "interactive"]);
    // Interleaved: the first 20 messages sent are not all of one lane.
    assert.equal(new Set(workload.messages.slice(0, 20).map((m) => m.lane)).size, 2);
  });

  it("refuses fewer than 30 messages", () => {
    assert.throws(
      () => buildChaosWorkload({ messages: 29, random: new SeededRandom(1), templates }),
      RangeError,
    );
  });
});
