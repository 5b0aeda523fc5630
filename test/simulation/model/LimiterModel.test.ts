import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Clock } from "../../../functions/common/Clock.js";
import { Deadline } from "../../../functions/common/Deadline.js";
import {
  AdaptiveConcurrencyLimiter,
  type CallSignal,
  type Permit,
} from "../../../functions/flow/AdaptiveConcurrencyLimiter.js";
import { LimiterModel } from "../../../simulation/model/LimiterModel.js";
import { SeededRandom } from "../../../simulation/SeededRandom.js";

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

describe("LimiterModel", () => {
  it("follows AdaptiveConcurrencyLimiter's limit and pause step for step on the same signals", async () => {
    // prepare
    const clock = manualClock();
    const real = new AdaptiveConcurrencyLimiter({ maxLimit: 8, clock });
    const model = new LimiterModel({ maxLimit: 8 });
    const random = new SeededRandom(3);
    const out: Array<{ permit: Permit; order: number }> = [];
    const signals: CallSignal[] = ["ok", "ok", "ok", "overload", "error"];

    for (let step = 0; step < 400; step++) {
      clock.advance(Math.floor(random.next() * 400));
      // act: take every place both allow, then end one call out with a signal
      while (model.canStart(clock.now())) {
        const permit = await real.acquire(new Deadline(clock.now() + 60_000, clock));
        assert.ok(permit !== undefined, `step ${step}: the real limiter grants what the model grants`);
        out.push({ permit, order: model.take() });
      }
      const ending = out.splice(Math.floor(random.next() * out.length), 1)[0];
      if (ending === undefined) continue;
      const signal = signals[Math.floor(random.next() * signals.length)] as CallSignal;
      const retryAfterMs = signal === "overload" && random.next() < 0.5 ? 1000 : undefined;
      ending.permit.release(signal, retryAfterMs);
      model.release(ending.order, signal, clock.now(), retryAfterMs);

      // assert
      assert.equal(model.limit(), real.limit(), `step ${step}: limit`);
      assert.equal(model.inFlight(), real.stats().inFlight, `step ${step}: calls out`);
      const pausedUntil = real.stats().pausedUntil;
      assert.equal(pausedUntil === 0 ? 0 : model.pausedUntilMs(), pausedUntil, `step ${step}: pause`);
    }
  });
});
