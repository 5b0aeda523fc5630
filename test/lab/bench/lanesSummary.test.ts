import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { summarizeLanes, summarizeLatency } from "../../../lab/bench/lanes/summarizeLanes.js";

const clean = {
  interactiveAlone: [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000],
  interactiveDuring: [150, 250, 350, 450, 550, 650, 750, 850, 950, 1500],
  bulkAloneLinesPerS: 20,
  bulkDuringLinesPerS: 19,
  evaluationMs: 50,
  runningEvaluationMs: 200,
  deadLettered: 0,
  notEnded: 0,
  lost: 0,
  duplicated: 0,
};

describe("summarizeLatency", () => {
  it("takes p50 and p95 by nearest rank and the max", () => {
    // act
    const summary = summarizeLatency([5, 1, 4, 2, 3]);

    // assert
    assert.deepEqual(summary, { count: 5, p50_ms: 3, p95_ms: 5, max_ms: 5 });
  });

  it("gives NaN for a phase with no item", () => {
    assert.ok(Number.isNaN(summarizeLatency([]).p95_ms));
  });
});

describe("summarizeLanes", () => {
  it("divides during by alone and passes every goal of a clean run", () => {
    // act
    const summary = summarizeLanes(clean);

    // assert
    assert.deepEqual(summary.interactive.ratio, { p50: 1.1, p95: 1.5, max: 1.5 });
    assert.equal(summary.bulk.ratio, 0.95);
    assert.equal(summary.goals[0]?.bound, 1700);
    assert.ok(summary.goals.every((goal) => goal.met));
    assert.equal(summary.goals_met, true);
  });

  it("allows one bulk evaluation's time over 1.5× alone, and no more", () => {
    // prepare: alone p95 1000 ms, one bulk evaluation 200 ms (an interactive one 50 ms): the bound is 1700 ms
    const at = { ...clean, interactiveDuring: [1700] };
    const over = { ...clean, interactiveDuring: [1701] };

    // act / assert
    assert.equal(summarizeLanes(at).goals[0]?.met, true);
    assert.equal(summarizeLanes(over).goals[0]?.met, false);
    assert.equal(summarizeLanes(over).goals_met, false);
  });

  it("misses the bulk goal under 0.9 of alone", () => {
    const summary = summarizeLanes({ ...clean, bulkDuringLinesPerS: 17.9 });

    assert.equal(summary.goals[1]?.met, false);
    assert.equal(summary.bulk.ratio, 0.895);
  });

  it("misses a goal for each dead-lettered, not ended, lost or duplicated item", () => {
    const summary = summarizeLanes({ ...clean, deadLettered: 1, notEnded: 4, lost: 2, duplicated: 3 });

    assert.deepEqual(
      summary.goals.slice(2).map((goal) => [goal.name, goal.measured, goal.met]),
      [
        ["dead-lettered", 1, false],
        ["not ended", 4, false],
        ["lost", 2, false],
        ["duplicated", 3, false],
      ],
    );
  });

  it("misses the interactive goal when no item was measured during the drain", () => {
    const summary = summarizeLanes({ ...clean, interactiveDuring: [] });

    assert.equal(summary.goals[0]?.met, false);
  });
});
