import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tallyLaneEnds } from "../../../lab/bench/lanes/tallyLaneEnds.js";
import { waitForProgress } from "../../../lab/bench/lanes/waitForProgress.js";

describe("tallyLaneEnds", () => {
  it("counts items still queued as not ended, not lost", () => {
    // act
    const ends = tallyLaneEnds({ withoutOutcome: 71, queued: 71, deadLettered: 0 });

    // assert
    assert.deepEqual(ends, { dead_lettered: 0, not_ended: 71, lost: 0 });
  });

  it("counts items without an outcome in no queue and no DLQ as lost", () => {
    const ends = tallyLaneEnds({ withoutOutcome: 5, queued: 3, deadLettered: 1 });

    assert.deepEqual(ends, { dead_lettered: 1, not_ended: 3, lost: 1 });
  });

  it("gives 0 lost and 0 not ended when every item has its outcome, whatever else is queued", () => {
    const ends = tallyLaneEnds({ withoutOutcome: 0, queued: 4, deadLettered: 0 });

    assert.deepEqual(ends, { dead_lettered: 0, not_ended: 0, lost: 0 });
  });
});

/** A clock that moves only when the wait sleeps. */
function fakeClock() {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
}

describe("waitForProgress", () => {
  it("keeps waiting past the stall time while progress moves, and ends when done holds", async () => {
    // prepare: one more outcome every 900 ms of a 1000 ms stall time, done at 30
    const clock = fakeClock();
    let count = 0;

    // act
    const result = await waitForProgress({
      ...clock,
      stallMs: 1000,
      pollMs: 100,
      progress: () => {
        count = Math.floor(clock.now() / 900);
        return count;
      },
      done: () => count >= 30,
    });

    // assert: 27 s waited, 27 × the stall time
    assert.equal(result.done, true);
    assert.equal(result.progress, 30);
    assert.ok(result.waitedMs >= 27_000, String(result.waitedMs));
  });

  it("gives up after the stall time without a change and says it is not done", async () => {
    const clock = fakeClock();

    const result = await waitForProgress({ ...clock, stallMs: 1000, progress: () => 7, done: () => false });

    assert.deepEqual(result, { done: false, progress: 7, waitedMs: 1000 });
  });

  it("ends at once when done already holds", async () => {
    const clock = fakeClock();

    const result = await waitForProgress({ ...clock, stallMs: 1000, progress: () => 0, done: () => true });

    assert.deepEqual(result, { done: true, progress: 0, waitedMs: 0 });
  });
});
