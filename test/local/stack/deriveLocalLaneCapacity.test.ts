/** Each lane's share of the local adapter: interactive within the reserve, bulk within the rest. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveLocalLaneCapacity, LOCAL_ADMISSION } from "../../../local/stack/deriveLocalLaneCapacity.js";

describe("deriveLocalLaneCapacity", () => {
  it("sizes the lanes against the adapter's default admission: 2 interactive calls, 6 bulk calls of 9 admitted", () => {
    assert.deepEqual(LOCAL_ADMISSION, { running: 1, waiting: 8, interactiveReserve: 2 });

    const capacity = deriveLocalLaneCapacity();

    assert.deepEqual(capacity.interactive, { calls: 2, maximumConcurrency: 2, maxConcurrentGroups: 1 });
    assert.deepEqual(capacity.bulk, { calls: 6, maximumConcurrency: 2, maxConcurrentGroups: 3 });
  });

  it("never lets bulk's calls reach into the interactive reserve, nor interactive's exceed it", () => {
    for (let waiting = 2; waiting <= 40; waiting++) {
      for (let reserve = 1; reserve <= Math.min(waiting, 8); reserve++) {
        const admission = { running: 1, waiting, interactiveReserve: reserve };
        if (1 + waiting - reserve < 2) continue;
        const capacity = deriveLocalLaneCapacity(admission, 4);
        assert.ok(capacity.interactive.calls <= reserve, JSON.stringify({ admission, capacity }));
        assert.ok(capacity.bulk.calls <= 1 + waiting - reserve, JSON.stringify({ admission, capacity }));
        assert.ok(capacity.bulk.maxConcurrentGroups <= 4);
        assert.equal(
          capacity.bulk.calls,
          capacity.bulk.maximumConcurrency * capacity.bulk.maxConcurrentGroups,
        );
      }
    }
  });

  it("refuses a reserve that leaves bulk fewer than two places, naming what to change", () => {
    assert.throws(
      () => deriveLocalLaneCapacity({ running: 1, waiting: 2, interactiveReserve: 2 }),
      /the bulk lane gets 1; raise the queue depth or lower the reserve/,
    );
  });
});
