/** The fault schedule: each fault once, triggered while items still flow, the same for a seed. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { planFaultSchedule } from "../../../lab/chaos/planFaultSchedule.js";

describe("planFaultSchedule", () => {
  it("plans each of the five faults once, in rising order between 10% and 75% ended", () => {
    const schedule = planFaultSchedule({ random: new SeededRandom(3), deadlineMs: 9_000 });

    assert.deepEqual(schedule.map((fault) => fault.kind).sort(), [
      "adapter-errors",
      "adapter-kill",
      "dynamodb-stop",
      "poller-kill",
      "slow-answers",
    ]);
    const points = schedule.map((fault) => fault.at);
    assert.deepEqual(
      points,
      [...points].sort((a, b) => a - b),
    );
    assert.ok(points.every((at) => at >= 0.1 && at <= 0.75));
  });

  it("holds slow answers around the deadline and keeps DynamoDB down ~10 s at full scale", () => {
    const schedule = planFaultSchedule({ random: new SeededRandom(3), deadlineMs: 9_000 });

    const slow = schedule.find((fault) => fault.kind === "slow-answers");
    const dynamodb = schedule.find((fault) => fault.kind === "dynamodb-stop");
    assert.ok(slow?.kind === "slow-answers" && slow.delayMs[0] < 9_000 && slow.delayMs[1] > 9_000);
    assert.equal(dynamodb?.kind === "dynamodb-stop" && dynamodb.downMs, 10_000);
  });

  it("gives the same schedule for the same seed and another for another", () => {
    const a = planFaultSchedule({ random: new SeededRandom(11), deadlineMs: 9_000, windowScale: 0.3 });
    const b = planFaultSchedule({ random: new SeededRandom(11), deadlineMs: 9_000, windowScale: 0.3 });
    const c = planFaultSchedule({ random: new SeededRandom(12), deadlineMs: 9_000, windowScale: 0.3 });

    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
  });
});
