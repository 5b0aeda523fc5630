import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Deadline } from "../../../core/common/Deadline.js";
import { AdaptiveConcurrencyLimiter, type Permit } from "../../../core/flow/AdaptiveConcurrencyLimiter.js";
import { ManualClock } from "../../support/ManualClock.js";

function setup(options: {
  maxLimit: number;
  initialLimit?: number;
  pauseMs?: number;
  probeSlowdown?: number;
}) {
  const clock = new ManualClock();
  const limiter = new AdaptiveConcurrencyLimiter({ ...options, clock });
  const deadline = (ms: number) => new Deadline(clock.now() + ms, clock);
  return { clock, limiter, deadline };
}

/** Starts `n` acquires and collects what each resolves with, in resolution order. */
function acquireMany(limiter: AdaptiveConcurrencyLimiter, n: number, deadline: Deadline) {
  const granted: (Permit | undefined)[] = [];
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    void limiter.acquire(deadline).then((permit) => {
      granted[i] = permit;
      order.push(i);
    });
  }
  return { granted, order };
}

describe("AdaptiveConcurrencyLimiter", () => {
  it("lets ⌊limit⌋ calls out and the next one in, in arrival order, when one is released", async () => {
    const { clock, limiter, deadline } = setup({ maxLimit: 2, initialLimit: 2 });
    const { granted, order } = acquireMany(limiter, 3, deadline(10_000));
    await clock.advance(0);

    assert.deepEqual(order, [0, 1]);
    assert.equal(limiter.stats().waiting, 1);
    granted[0]?.release("ok");
    await clock.advance(0);
    assert.deepEqual(order, [0, 1, 2]);
    assert.equal(limiter.stats().inFlight, 2);
  });

  it("halves the limit on an overload, once per episode, and pauses new calls for the Retry-After", async () => {
    const { clock, limiter, deadline } = setup({ maxLimit: 4, initialLimit: 4 });
    const { granted, order } = acquireMany(limiter, 6, deadline(60_000));
    await clock.advance(0);
    assert.deepEqual(order, [0, 1, 2, 3]);

    granted[0]?.release("overload", 2_000);
    // The other three were already out when the limit fell: their overloads say nothing new.
    granted[1]?.release("overload", 2_000);
    granted[2]?.release("overload");
    assert.equal(limiter.limit(), 2);
    assert.equal(limiter.stats().decreases, 1);

    await clock.advance(1_999);
    assert.deepEqual(order, [0, 1, 2, 3], "nothing starts during the Retry-After");
    await clock.advance(1);
    // Limit 2, one call (3) still out: one more may start.
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
  });

  it("raises the limit by 1/limit per success up to the maximum", () => {
    const { clock, limiter } = setup({ maxLimit: 3, initialLimit: 1 });
    const release = async () =>
      (await limiter.acquire(new Deadline(clock.now() + 1_000, clock)))?.release("ok");

    return (async () => {
      await release();
      assert.equal(limiter.limit(), 2);
      await release();
      assert.equal(limiter.limit(), 2.5);
      for (let i = 0; i < 10; i++) await release();
      assert.equal(limiter.limit(), 3);
    })();
  });

  it("leaves the limit alone on a failure that is not an overload", async () => {
    const { clock, limiter } = setup({ maxLimit: 4, initialLimit: 2 });
    const permit = await limiter.acquire(new Deadline(clock.now() + 1_000, clock));

    permit?.release("error");
    assert.equal(limiter.limit(), 2);
    assert.equal(limiter.stats().pausedUntil, 0);
  });

  it("gives a waiter no permit once its deadline passes, and a later one still gets its turn", async () => {
    const { clock, limiter, deadline } = setup({ maxLimit: 1 });
    const first = acquireMany(limiter, 1, deadline(60_000));
    const late = acquireMany(limiter, 1, deadline(500));
    const next = acquireMany(limiter, 1, deadline(60_000));
    await clock.advance(500);

    assert.deepEqual(late.order, [0]);
    assert.equal(late.granted[0], undefined);
    first.granted[0]?.release("ok");
    await clock.advance(0);
    assert.ok(next.granted[0] !== undefined);
  });

  it("doubles its own pause while overloads follow each other, when no Retry-After is given", async () => {
    const { clock, limiter } = setup({ maxLimit: 1, pauseMs: 100 });
    const overload = async () => {
      const permit = await limiter.acquire(new Deadline(clock.now() + 60_000, clock));
      const at = clock.now();
      permit?.release("overload");
      return limiter.stats().pausedUntil - at;
    };

    const first = overload();
    await clock.advance(0);
    assert.equal(await first, 100);
    const second = overload();
    await clock.advance(100);
    assert.equal(await second, 200);
  });

  it("starts at its minimum and climbs one step per round of successes", async () => {
    const { clock, limiter, deadline } = setup({ maxLimit: 4 });
    assert.equal(limiter.limit(), 1);
    const { granted, order } = acquireMany(limiter, 3, deadline(60_000));
    await clock.advance(0);
    assert.deepEqual(order, [0], "one call out at the start, whatever the maximum");
    granted[0]?.release("ok");
    await clock.advance(0);
    assert.equal(limiter.limit(), 2);
    assert.deepEqual(order, [0, 1, 2]);
  });

  /** Calls served one at a time until the limit reaches `target` or `most` calls were made; returns the calls. */
  async function climb(
    limiter: AdaptiveConcurrencyLimiter,
    clock: ManualClock,
    target: number,
    most = 1_000,
  ) {
    let calls = 0;
    while (limiter.limit() < target && calls < most) {
      const permit = limiter.acquire(new Deadline(clock.now() + 60_000, clock));
      await clock.advance(0);
      (await permit)?.release("ok");
      calls += 1;
    }
    return calls;
  }

  it("climbs back to the level that was refused probeSlowdown times slower, and at the normal pace once a step above it held", async () => {
    const { clock, limiter, deadline } = setup({ maxLimit: 8, initialLimit: 4, probeSlowdown: 8 });
    const refused = acquireMany(limiter, 1, deadline(60_000));
    await clock.advance(0);
    refused.granted[0]?.release("overload");
    assert.equal(limiter.limit(), 2);
    assert.equal(limiter.stats().refusedAt, 4);
    await clock.advance(10_000);

    // From 2 to 3: below the refused level, the normal pace (2 → 2.5 → 2.9 → 3.24: 3 successes).
    assert.equal(await climb(limiter, clock, 3), 3);
    // From 3 to 4 (the refused level) and on to 5: several times slower than without a refusal.
    const slow = await climb(limiter, clock, 5);
    const fresh = setup({ maxLimit: 8, initialLimit: 3 });
    const normal = await climb(fresh.limiter, fresh.clock, 5);
    assert.equal(normal, 8);
    assert.ok(
      slow >= 5 * normal,
      `the climb through the refused level took ${slow} calls, ${normal} without a refusal`,
    );
    assert.equal(limiter.stats().refusedAt, undefined);
    // Above it: the normal pace again (about 1/limit a success: 6 successes from 5.0x to 6).
    assert.equal(await climb(limiter, clock, 6), 6);
  });

  it("refuses limits out of order", () => {
    assert.throws(() => new AdaptiveConcurrencyLimiter({ maxLimit: 0 }), RangeError);
    assert.throws(() => new AdaptiveConcurrencyLimiter({ maxLimit: 2, minLimit: 3 }), RangeError);
    assert.throws(() => new AdaptiveConcurrencyLimiter({ maxLimit: 2, decreaseFactor: 1 }), RangeError);
    assert.throws(() => new AdaptiveConcurrencyLimiter({ maxLimit: 2, probeSlowdown: 0.5 }), RangeError);
  });
});
