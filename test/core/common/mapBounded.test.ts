import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mapBounded } from "../../../core/common/mapBounded.js";

describe("mapBounded", () => {
  it("keeps at most `limit` in flight and returns settled results in item order", async () => {
    let inFlight = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const running = mapBounded([1, 2, 3, 4, 5], 2, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight -= 1;
      if (n === 3) throw new Error("three");
      return n * 10;
    });
    // Release one waiting item at a time until all five have started and finished.
    for (let released = 0; released < 5; ) {
      await new Promise((resolve) => setImmediate(resolve));
      const release = releases.shift();
      if (release) {
        release();
        released += 1;
      }
    }

    const results = await running;

    assert.equal(peak, 2);
    assert.deepEqual(
      results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message)),
      [10, 20, "three", 40, 50],
    );
  });

  it("returns an empty list for no items", async () => {
    assert.deepEqual(await mapBounded([], 3, async () => 1), []);
  });
});
