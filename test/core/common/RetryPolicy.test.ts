import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Deadline } from "../../../core/common/Deadline.js";
import {
  DeadlineExceededError,
  PermanentError,
  RetriesExhaustedError,
  TransientError,
} from "../../../core/common/errors.js";
import { RetryBudget } from "../../../core/common/RetryBudget.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { FakeClock } from "../../support/FakeClock.js";

/** An operation that fails transiently `failures` times, then returns "ok"; it counts its calls. */
function flaky(failures: number, clock?: FakeClock, costMs = 0) {
  const calls: number[] = [];
  return {
    calls,
    run: async (attempt: number) => {
      calls.push(attempt);
      clock?.advance(costMs);
      if (calls.length <= failures) throw new TransientError(`failure ${calls.length}`);
      return "ok";
    },
  };
}

describe("RetryPolicy", () => {
  it("retries transient failures with full-jitter backoff under a doubling cap", async () => {
    const clock = new FakeClock();
    const policy = new RetryPolicy({ maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 });
    const operation = flaky(5);
    const retries: number[] = [];

    const result = await policy.run(operation.run, {
      deadline: new Deadline(clock.now() + 60_000, clock),
      onRetry: (event) => retries.push(event.attempt),
    });

    assert.equal(result, "ok");
    assert.deepEqual(operation.calls, [1, 2, 3, 4, 5, 6]);
    // random 0.5 × min(1000, 100·2^(n-1)): 50, 100, 200, 400, then capped at 500.
    assert.deepEqual(clock.sleeps, [50, 100, 200, 400, 500]);
    assert.deepEqual(retries, [1, 2, 3, 4, 5]);
  });

  it("draws each wait uniformly below the cap (random 0 waits 0, random just below 1 waits just below the cap)", async () => {
    const clock = new FakeClock();
    const draws = [0, 0.999];
    const policy = new RetryPolicy({ baseDelayMs: 100, random: () => draws.shift() ?? 0 });

    await policy.run(flaky(2).run, { deadline: new Deadline(clock.now() + 60_000, clock) });

    assert.deepEqual(clock.sleeps, [0, 199]);
  });

  it("gives up after maxAttempts with the last failure as the cause", async () => {
    const clock = new FakeClock();
    const policy = new RetryPolicy({ maxAttempts: 3, random: () => 0 });
    const operation = flaky(10);

    const error = await policy
      .run(operation.run, { deadline: new Deadline(clock.now() + 60_000, clock) })
      .catch((e: unknown) => e);

    assert.ok(error instanceof RetriesExhaustedError);
    assert.ok(error instanceof TransientError, "exhausted retries stay transient: SQS redelivers");
    assert.equal(error.attempts, 3);
    assert.equal(error.reason, "attempts");
    assert.equal((error.cause as Error).message, "failure 3");
    assert.equal(operation.calls.length, 3);
  });

  it("stops when the deadline leaves no room for the next backoff, without sleeping past it", async () => {
    const clock = new FakeClock();
    const policy = new RetryPolicy({
      maxAttempts: 10,
      baseDelayMs: 1000,
      maxDelayMs: 8000,
      random: () => 0.9,
    });
    const operation = flaky(10, clock, 500);
    const deadline = new Deadline(clock.now() + 3000, clock);

    const error = await policy.run(operation.run, { deadline }).catch((e: unknown) => e);

    assert.ok(error instanceof RetriesExhaustedError);
    assert.equal(error.reason, "deadline");
    // attempt 1 (500 ms) + wait 900 + attempt 2 (500 ms) = 1900; the next wait (1800) would pass 3000.
    assert.equal(operation.calls.length, 2);
    assert.deepEqual(clock.sleeps, [900]);
    assert.ok(clock.now() <= deadline.at);
  });

  it("does not start when the deadline has passed", async () => {
    const clock = new FakeClock();
    const operation = flaky(0);

    const error = await new RetryPolicy()
      .run(operation.run, { deadline: new Deadline(clock.now() - 1, clock) })
      .catch((e: unknown) => e);

    assert.ok(error instanceof DeadlineExceededError);
    assert.equal(operation.calls.length, 0);
  });

  it("rethrows permanent and unclassified errors at once", async () => {
    const clock = new FakeClock();
    const deadline = new Deadline(clock.now() + 60_000, clock);
    for (const thrown of [new PermanentError("invalid"), new TypeError("bug")]) {
      let calls = 0;
      const error = await new RetryPolicy()
        .run(
          async () => {
            calls += 1;
            throw thrown;
          },
          { deadline },
        )
        .catch((e: unknown) => e);
      assert.equal(error, thrown);
      assert.equal(calls, 1);
    }
    assert.deepEqual(clock.sleeps, []);
  });

  it("refuses a maxAttempts that is not a positive integer", () => {
    assert.throws(() => new RetryPolicy({ maxAttempts: 0 }), RangeError);
  });
});

describe("Deadline", () => {
  it("is the remaining time less the margin, never in the past", () => {
    const clock = new FakeClock();
    assert.equal(Deadline.fromRemaining(30_000, 10_000, clock).remainingMs(), 20_000);
    assert.equal(Deadline.fromRemaining(5_000, 10_000, clock).remainingMs(), 0);
    assert.equal(Deadline.fromRemaining(5_000, 10_000, clock).expired(), true);
  });

  it("waits at least the failure's Retry-After, and stops when the deadline leaves no room for it", async () => {
    const clock = new FakeClock();
    const policy = new RetryPolicy({ baseDelayMs: 100, random: () => 0.5 });
    let calls = 0;
    const busy = async () => {
      calls += 1;
      if (calls === 1) throw new TransientError("busy", { retryAfterMs: 1_500 });
      return "ok";
    };

    assert.equal(await policy.run(busy, { deadline: new Deadline(clock.now() + 60_000, clock) }), "ok");
    assert.deepEqual(clock.sleeps, [1_500]);

    calls = 0;
    const error = await policy
      .run(busy, { deadline: new Deadline(clock.now() + 1_000, clock) })
      .catch((e: unknown) => e);
    assert.ok(error instanceof RetriesExhaustedError);
    assert.equal(error.reason, "deadline");
  });

  it("takes a retry's tokens from the budget, gives them back on success, and stops when it is spent", async () => {
    const clock = new FakeClock();
    const budget = new RetryBudget({ capacity: 10, retryCost: 5 });
    const policy = new RetryPolicy({ maxAttempts: 6, random: () => 0, budget });
    const deadline = () => new Deadline(clock.now() + 60_000, clock);

    await policy.run(flaky(1).run, { deadline: deadline() });
    assert.equal(budget.available(), 10, "the success refunded its retry");

    const operation = flaky(10);
    const error = await policy.run(operation.run, { deadline: deadline() }).catch((e: unknown) => e);
    assert.ok(error instanceof RetriesExhaustedError);
    assert.equal(error.reason, "budget");
    assert.deepEqual(operation.calls, [1, 2, 3]);
    assert.equal(budget.available(), 0);
  });
});
