import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Clock } from "../../../core/common/Clock.js";
import { Deadline } from "../../../core/common/Deadline.js";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { AdaptiveConcurrencyLimiter, type Permit } from "../../../core/flow/AdaptiveConcurrencyLimiter.js";
import { AimdLimit, type CallSignal } from "../../../core/flow/AimdLimit.js";

/** A clock that moves only when told; its sleeps never end (the test never waits on one). */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: (_ms, signal) =>
      new Promise((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
      ),
    advance: (ms) => {
      now += ms;
    },
  };
}

describe("AimdLimit", () => {
  it("starts at its minimum, lets ⌊limit⌋ calls out and climbs by 1/limit per served call up to the maximum", () => {
    const aimd = new AimdLimit({ maxLimit: 3 });
    assert.equal(aimd.limit(), 1);
    const first = aimd.take();
    assert.equal(aimd.canStart(0), false, "one call out under a limit of 1");

    aimd.release(first, "ok", 0);
    assert.equal(aimd.limit(), 2);
    assert.equal(aimd.canStart(0), true);
    for (const order of [aimd.take(), aimd.take()]) aimd.release(order, "ok", 0);
    assert.equal(aimd.limit(), 2 + 1 / 2 + 1 / 2.5);
    aimd.release(aimd.take(), "ok", 0);
    assert.equal(aimd.limit(), 3, "never above maxLimit");
    assert.equal(aimd.limit(), 3, "never above maxLimit");
  });

  it("halves the limit once per overload episode, pauses for at least the Retry-After, and ignores other failures", () => {
    const aimd = new AimdLimit({ maxLimit: 8, initialLimit: 8 });
    const orders = [aimd.take(), aimd.take(), aimd.take()];

    aimd.release(orders[0] as number, "overload", 1000, 2000);
    assert.equal(aimd.limit(), 4);
    assert.equal(aimd.pausedUntilMs(), 3000);
    assert.equal(aimd.canStart(2999), false, "paused");
    aimd.release(orders[1] as number, "overload", 1000);
    assert.equal(aimd.limit(), 4, "a call out at the last decrease does not decrease again");
    assert.equal(aimd.decreases(), 1);
    aimd.release(orders[2] as number, "error", 1000);
    assert.equal(aimd.limit(), 4);
    assert.equal(aimd.canStart(3000), true);

    aimd.release(aimd.take(), "overload", 3000);
    assert.equal(aimd.limit(), 2, "a call taken after the decrease starts a new episode");
    assert.equal(aimd.decreases(), 2);
  });

  it("doubles its own pause while overloads follow each other, up to maxPauseMs", () => {
    const aimd = new AimdLimit({ maxLimit: 4, initialLimit: 4, pauseMs: 100, maxPauseMs: 350 });
    const pauses: number[] = [];
    for (let i = 0; i < 4; i++) {
      aimd.release(aimd.take(), "overload", 0);
      pauses.push(aimd.pausedUntilMs());
    }
    assert.deepEqual(pauses, [100, 200, 350, 350]);
  });

  it("climbs into the level last refused probeSlowdown times slower, and forgets it a step above", () => {
    const aimd = new AimdLimit({ maxLimit: 8, initialLimit: 4, probeSlowdown: 4 });
    aimd.release(aimd.take(), "overload", 0);
    assert.equal(aimd.limit(), 2);
    assert.equal(aimd.refusedAt(), 4);

    let steps = 0;
    while (aimd.limit() + 1 / aimd.limit() < 4) {
      const before = aimd.limit();
      aimd.release(aimd.take(), "ok", 0);
      assert.equal(
        aimd.limit(),
        before + 1 / before,
        "1/limit while the next step stays below the refused level",
      );
      steps += 1;
    }
    assert.ok(steps >= 3, `climbed ${steps} normal steps`);
    const before = aimd.limit();
    aimd.release(aimd.take(), "ok", 0);
    assert.equal(aimd.limit(), before + 1 / before / 4, "the next step would reach 4: 4 times slower");
    while (aimd.refusedAt() !== undefined) aimd.release(aimd.take(), "ok", 0);
    assert.ok(aimd.limit() >= 5, "the refused level is forgotten once a step above it served");
  });

  it("refuses limits out of order", () => {
    assert.throws(() => new AimdLimit({ maxLimit: 0 }), RangeError);
    assert.throws(() => new AimdLimit({ maxLimit: 4, minLimit: 5 }), RangeError);
    assert.throws(() => new AimdLimit({ maxLimit: 4, initialLimit: 5 }), RangeError);
    assert.throws(() => new AimdLimit({ maxLimit: 4, decreaseFactor: 1 }), RangeError);
  });

  it("is what AdaptiveConcurrencyLimiter runs: its permits, limit and pause follow the rule's step for step", async () => {
    // prepare
    const clock = manualClock();
    const real = new AdaptiveConcurrencyLimiter({ maxLimit: 8, clock });
    const rule = new AimdLimit({ maxLimit: 8 });
    const random = new SeededRandom(3);
    const out: Array<{ permit: Permit; order: number }> = [];
    const signals: CallSignal[] = ["ok", "ok", "ok", "overload", "error"];
    let highest = 0;

    for (let step = 0; step < 400; step++) {
      clock.advance(Math.floor(random.next() * 400));
      // act: take every place both allow, then end one call out with a signal
      while (rule.canStart(clock.now())) {
        const permit = await real.acquire(new Deadline(clock.now() + 60_000, clock));
        assert.ok(permit !== undefined, `step ${step}: the limiter grants what the rule grants`);
        out.push({ permit, order: rule.take() });
      }
      const ending = out.splice(Math.floor(random.next() * out.length), 1)[0];
      if (ending === undefined) continue;
      const signal = signals[Math.floor(random.next() * signals.length)] as CallSignal;
      const retryAfterMs = signal === "overload" && random.next() < 0.5 ? 1000 : undefined;
      ending.permit.release(signal, retryAfterMs);
      rule.release(ending.order, signal, clock.now(), retryAfterMs);

      // assert
      assert.equal(rule.limit(), real.limit(), `step ${step}: limit`);
      highest = Math.max(highest, rule.limit());
      assert.equal(rule.inFlight(), real.stats().inFlight, `step ${step}: calls out`);
      const pausedUntil = real.stats().pausedUntil;
      assert.equal(pausedUntil === 0 ? 0 : rule.pausedUntilMs(), pausedUntil, `step ${step}: pause`);
    }
    assert.ok(rule.decreases() > 0 && highest >= 2, `the run met overloads and climbed (highest ${highest})`);
  });
});
