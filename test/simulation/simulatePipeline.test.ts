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
    assert.ok(peak >= 20, `the bulk lane follows the 10 instances once InService (peak ${peak})`);
  });

  it("in follow mode scales out to the maximum for a large backlog, then back to the minimum once drained", () => {
    // act
    const result = simulatePipeline({ ...small, capacity: "follow", minInstances: 1, maxInstances: 10 });

    // assert
    assert.equal(result.finished, true);
    assert.equal(result.peak_in_service_instances, 10);
    assert.equal(result.peak_busy_instances, 10);
    assert.notEqual(result.scaling.back_to_min_hours, null);
    const last = result.timeline.at(-1);
    assert.equal(last?.billed, 1);
  });

  it("in follow mode meets no 503 storm: refusals stay below 1 % of the calls", () => {
    // act
    const result = simulatePipeline({ ...small, capacity: "follow", maxInstances: 10 });

    // assert
    assert.ok(result.refused_share < 0.01, `refused share ${result.refused_share}`);
  });

  it("in follow mode finishes in about E / max instances plus the scaling time", () => {
    // prepare: E = 6000 × 3 s = 5 instance-hours; 10 instances → 0.5 h, plus ~2 min to scale out
    const result = simulatePipeline({ ...small, capacity: "follow", maxInstances: 10, serviceVariation: 0 });

    // assert
    assert.ok(result.job_hours > 0.5 && result.job_hours < 0.7, `job ${result.job_hours} h`);
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
