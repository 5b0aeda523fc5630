/**
 * The retry schedule: equal-jitter exponential waits within their bounds, Retry-After honoured up to
 * the cap, and what follows each kind of answer (delivered, wait, give up with a reason).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DEFAULT_DELIVERY_SCHEDULE } from "../../../contract/delivery/deliverySchedule.js";
import { nextStepOf, retryDelayMs } from "../../../core/delivery/index.js";

const schedule = DEFAULT_DELIVERY_SCHEDULE;

describe("retryDelayMs", () => {
  it("doubles from 5 s to the 600 s cap, each wait between half and all of its step", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, draw) => {
          const step = Math.min(600_000, 5_000 * 2 ** (retry - 1));
          const delay = retryDelayMs(retry, schedule, () => draw);
          assert.ok(delay >= step / 2 && delay <= step, `${delay} for retry ${retry}`);
        },
      ),
    );
  });

  it("states the default schedule's span: nine waits of 15 min 18 s to 30 min 35 s in all", () => {
    const total = (draw: number) =>
      Array.from({ length: schedule.attempts - 1 }, (_, index) =>
        retryDelayMs(index + 1, schedule, () => draw),
      ).reduce((a, b) => a + b, 0);
    assert.equal(total(0), 917_500);
    assert.equal(total(1), 1_835_000);
  });

  it("waits at least the receiver's Retry-After, up to the cap", () => {
    assert.equal(
      retryDelayMs(1, schedule, () => 0, 60_000),
      60_000,
    );
    assert.equal(
      retryDelayMs(1, schedule, () => 0, 3_600_000),
      600_000,
    );
    assert.equal(
      retryDelayMs(4, schedule, () => 1, 1_000),
      40_000,
    );
  });
});

describe("nextStepOf", () => {
  const retry = { kind: "retry" as const, answer: { status: 500, body: "" }, retryAfterMs: undefined };

  it("ends a delivered attempt", () => {
    assert.deepEqual(nextStepOf({ kind: "delivered", status: 200 }, 1, schedule, Math.random), {
      kind: "delivered",
    });
  });

  it("waits after a retryable answer until the last attempt, then gives up naming the count and the answer", () => {
    const wait = nextStepOf(retry, 9, schedule, () => 1);
    assert.equal(wait.kind, "wait");
    const last = nextStepOf(
      { ...retry, answer: { error: "ECONNREFUSED: connect ECONNREFUSED" } },
      10,
      schedule,
      () => 1,
    );
    assert.equal(last.kind, "give-up");
    assert.match(
      last.kind === "give-up" ? last.reason : "",
      /no 2xx after 10 attempts \(the last: ECONNREFUSED/,
    );
  });

  it("gives up at once on a refused answer, naming its status", () => {
    const step = nextStepOf({ kind: "refused", answer: { status: 410, body: "gone" } }, 1, schedule, () => 1);
    assert.equal(step.kind, "give-up");
    assert.match(step.kind === "give-up" ? step.reason : "", /refused it with HTTP 410/);
  });
});
