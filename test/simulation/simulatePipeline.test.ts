import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simulatePipeline } from "../../simulation/index.js";

/** A job small enough for a unit test: 3 s a request, instances InService after 2 minutes. */
const small = { lines: 6000, requestSeconds: 3, instanceStartSeconds: 120, ingestLinesPerSecond: 0 } as const;

describe("simulatePipeline", () => {
  it("gives the same result for the same seed, and another for another seed", () => {
    // act
    const first = simulatePipeline({ ...small, seed: 7, capacity: "follow", maxInstances: 5 });
    const again = simulatePipeline({ ...small, seed: 7, capacity: "follow", maxInstances: 5 });
    const other = simulatePipeline({ ...small, seed: 8, capacity: "follow", maxInstances: 5 });

    // assert
    assert.deepEqual(again, first);
    assert.notEqual(other.job_hours, first.job_hours);
  });

  it("ends every line exactly once, decided or dead-lettered, under 5xx failures and refusals", () => {
    // act: a third of the served calls fail with a 5xx; few attempts, so some lines run out of receives
    const result = simulatePipeline({
      ...small,
      lines: 3000,
      endpointErrorRate: 0.3,
      maxAttempts: 1,
      maxReceiveCount: 2,
      functionTimeoutSeconds: 75,
      capacity: "follow",
      maxInstances: 4,
      interactiveRate: 0.05,
    });

    // assert
    assert.equal(result.finished, true);
    assert.ok(result.dead_lettered_lines > 0, "some lines used their receives up");
    assert.ok(result.decided_lines > 0);
    assert.equal(result.decided_lines + result.dead_lettered_lines, result.lines);
  });

  it("in fixed mode never sends more calls than the endpoint admits at minimum capacity: the ceiling of busy instances", () => {
    // act: the sizing before the controller at the CDK app's defaults: 1 instance admitting 4, 2 of
    // them kept for interactive calls, so the bulk lane has 2 calls in flight; up to 20 allowed
    const result = simulatePipeline({ ...small, capacity: "fixed", minInstances: 1, maxInstances: 20 });

    // assert
    assert.deepEqual(result.sizing, { max_concurrency: 2, groups_per_invocation: 1, calls_in_flight: 2 });
    assert.ok(result.peak_calls_in_flight <= 2, `peak ${result.peak_calls_in_flight} calls in flight`);
    assert.equal(result.refused_calls, 0);
    assert.equal(result.peak_busy_instances, 2);
    assert.equal(result.peak_in_service_instances, 2);
  });

  it("in follow mode keeps each lane at its minimum-capacity concurrency while the endpoint is Updating", () => {
    // act: a long instance start, so the scale-out keeps the endpoint Updating for many checks
    const result = simulatePipeline({
      ...small,
      capacity: "follow",
      maxInstances: 10,
      instanceStartSeconds: 600,
      serviceVariation: 0,
    });

    // assert: once the endpoint has been Updating (instances starting or leaving) for a whole
    // minute, the controller has checked and the bulk event source is at its value at minimum
    // capacity (2), whatever the instances InService would admit
    const updating = (point: { billed: number; in_service: number }) => point.billed > point.in_service;
    const checked = result.timeline.filter(
      (point) =>
        point.t >= 65 &&
        result.timeline.filter((other) => other.t >= point.t - 65 && other.t <= point.t).every(updating),
    );
    assert.ok(checked.length > 0, "points after a minute of Updating");
    for (const point of checked) {
      assert.equal(
        point.max_concurrency,
        2,
        `at ${point.t} s: ${point.in_service} InService, ${point.billed} billed`,
      );
    }
    assert.ok(
      result.scaling.controller_minimum_checks >= 9,
      `${result.scaling.controller_minimum_checks} checks`,
    );
    const peak = Math.max(...result.timeline.map((point) => point.max_concurrency));
    assert.ok(
      peak >= 2 * result.peak_in_service_instances,
      `the bulk lane follows the ${result.peak_in_service_instances} instances once InService (peak ${peak})`,
    );
  });

  it("in follow mode buys what the drain goal needs for a large backlog, then goes back to the minimum once drained", () => {
    // act: 6,000 lines × 3 s = 18,000 s of work; one instance reaches 3,600 − 240 s of a 60-minute
    // goal, each new one 3,360 − 120 s: 1 + ⌈(18,000 − 3,360) ÷ 3,240⌉ = 6 instances
    const result = simulatePipeline({ ...small, capacity: "follow", minInstances: 1, maxInstances: 10 });

    // assert
    assert.equal(result.finished, true);
    assert.equal(result.peak_in_service_instances, 6);
    assert.equal(result.met_goal, true, `job ${result.job_hours} h`);
    assert.notEqual(result.scaling.back_to_min_hours, null);
    const last = result.timeline.at(-1);
    assert.equal(last?.billed, 1);
  });

  it("in follow mode buys nothing for a backlog one instance drains within the goal, and pays about the work", () => {
    // act: 1,000 lines × 3 s = 50 minutes of one instance's work, goal 60 minutes, 10 allowed
    const result = simulatePipeline({ ...small, lines: 1000, capacity: "follow", maxInstances: 10 });

    // assert
    assert.equal(result.peak_in_service_instances, 1);
    assert.equal(result.scaling.scale_outs, 0);
    assert.equal(result.met_goal, true);
    assert.ok((result.paid_over_busy ?? 99) < 1.05, `paid ÷ busy ${result.paid_over_busy}`);
  });

  it("in follow mode a longer drain goal buys fewer instances for the same job", () => {
    // act
    const hour = simulatePipeline({ ...small, capacity: "follow", maxInstances: 10 });
    const fourHours = simulatePipeline({
      ...small,
      capacity: "follow",
      maxInstances: 10,
      bulkDrainGoalMinutes: 240,
    });

    // assert: 18,000 s within 4 hours less the reaction: 1 + ⌈(18,000 − 14,160) ÷ 14,040⌉ = 2
    assert.equal(fourHours.peak_in_service_instances, 2);
    assert.ok(
      fourHours.instance_hours < hour.instance_hours,
      `${fourHours.instance_hours} < ${hour.instance_hours}`,
    );
    assert.equal(fourHours.met_goal, true);
  });

  it("with lanes from zero pays no bulk instance for an idle day, and keeps the interactive floor", () => {
    // act
    const idleDay = simulatePipeline({ lines: 0, idleHours: 24, layout: "lanes-from-zero" });
    const shared = simulatePipeline({ lines: 0, idleHours: 24, layout: "shared" });
    const noFloor = simulatePipeline({ lines: 0, idleHours: 24, layout: "lanes-from-zero", minInstances: 0 });

    // assert
    assert.equal(idleDay.bulk_instance_hours, 0);
    assert.equal(idleDay.instance_hours, 24, "the interactive floor of 1 copy");
    assert.equal(shared.bulk_instance_hours, 24, "a shared fleet keeps its minimum for bulk too");
    assert.equal(noFloor.instance_hours, 0);
    assert.equal(idleDay.paid_over_busy, null);
  });

  it("with lanes from zero ends a job's first line after idle within the stated start, re-queuing lines while no copy serves", () => {
    // act: an hour idle, then a job on bulk copies at 0
    const result = simulatePipeline({ ...small, lines: 2000, layout: "lanes-from-zero", idleHours: 1 });

    // assert
    assert.equal(result.finished, true);
    assert.ok(result.stated_first_line_s !== null);
    assert.ok(
      result.first_line_s <= result.stated_first_line_s,
      `first line ${result.first_line_s} s, stated ${result.stated_first_line_s} s`,
    );
    assert.ok(result.first_line_s >= small.instanceStartSeconds, "no line before a copy has started");
    assert.ok(result.scaling.from_zero_steps >= 1);
    assert.equal(result.dead_lettered_lines, 0, "no capacity yet is busy, never a step toward the DLQ");
    assert.equal(result.decided_lines, 2000);
    assert.notEqual(result.scaling.back_to_min_hours, null, "the bulk copies go back to 0");
  });

  it("in follow mode meets no 503 storm: refusals stay below 1 % of the calls", () => {
    // act
    const result = simulatePipeline({ ...small, capacity: "follow", maxInstances: 10 });

    // assert
    assert.ok(result.refused_share < 0.01, `refused share ${result.refused_share}`);
  });

  it("in follow mode finishes a job the goal cannot be met for in about E / max instances plus the scaling time", () => {
    // prepare: E = 12,000 × 3 s = 10 instance-hours; a 60-minute goal wants more than 10 instances:
    // all 10 → 1 h, plus ~6 min to scale out (a 2-minute start and the rule's reaction)
    const result = simulatePipeline({
      ...small,
      lines: 12_000,
      capacity: "follow",
      maxInstances: 10,
      serviceVariation: 0,
    });

    // assert
    assert.equal(result.goal_within_max, false);
    assert.equal(result.peak_in_service_instances, 10);
    assert.ok(result.job_hours > 1 && result.job_hours < 1.15, `job ${result.job_hours} h`);
  });

  it("serves interactive items first while a bulk job drains, with lanes; without lanes they wait behind the job", () => {
    // act
    const lanes = simulatePipeline({ ...small, capacity: "follow", maxInstances: 4, interactiveRate: 0.1 });
    const oneLane = simulatePipeline({
      ...small,
      capacity: "follow",
      lanes: false,
      maxInstances: 4,
      interactiveRate: 0.1,
    });

    // assert: an interactive item waits at most for the batching window (1 s), the request running
    // and one other interactive call (the reserve keeps 2 places), and its own: 3 s each
    assert.ok(
      (lanes.interactive.p95_s ?? Number.POSITIVE_INFINITY) < 10 + 3,
      `p95 ${lanes.interactive.p95_s} s with lanes`,
    );
    assert.ok((oneLane.interactive.p95_s ?? 0) > 600, `p95 ${oneLane.interactive.p95_s} s without lanes`);
    assert.equal(lanes.interactive.refused_calls, 0, "an interactive call never meets a 503");
  });
});
