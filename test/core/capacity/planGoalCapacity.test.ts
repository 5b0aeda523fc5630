import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type GoalCapacityInputs,
  planGoalCapacity,
  SCALING_REACTION_SECONDS,
  TAIL_SPARE_SECONDS,
} from "../../../functions/capacityController/index.js";
import { propertyRuns } from "../../../lab/reliability/propertyRuns.js";

/** The CDK app's defaults: a 60-minute bulk goal, 60 s interactive, 0.312 s a line, 6-minute starts, 20 instances. */
function plan(inService: number, bulk: number, interactive = 0, overrides: Partial<GoalCapacityInputs> = {}) {
  return planGoalCapacity({
    inService,
    demands: [
      { backlog: interactive, goalSeconds: 60 },
      { backlog: bulk, goalSeconds: 3600 },
    ],
    secondsPerLine: 0.312,
    instanceStartSeconds: 360,
    maxInstances: 20,
    ...overrides,
  });
}

describe("planGoalCapacity", () => {
  it("buys nothing for a backlog the instances in service drain within the goal (10,000 lines on 1 instance)", () => {
    // act: 3,120 s of work against 3,600 − 240 s of reach
    const result = plan(1, 10_000);

    // assert
    assert.deepEqual(
      { wanted: result.wanted, ratio: result.ratio, reason: result.reason },
      { wanted: 1, ratio: 1, reason: "within-goal" },
    );
  });

  it("buys what the goal needs for a larger backlog: new instances work the goal less their start and the reaction", () => {
    // act: 100,000 lines = 31,200 s; 1 instance reaches 3,360 s, each new one 3,000 s
    const result = plan(1, 100_000);

    // assert: 1 + ⌈(31,200 − 3,360) ÷ 3,000⌉ = 11, asked for as (11 − ½) ÷ 1
    assert.equal(result.reason, "buy");
    assert.equal(result.wanted, 11);
    assert.equal(result.ratio, 10.5);
    assert.equal(
      Math.ceil(1 * result.ratio),
      11,
      "target tracking's ⌈capacity × metric ÷ 1⌉ is what is wanted",
    );
  });

  it("never wants more than maxInstances", () => {
    const result = plan(1, 1_000_000);

    assert.equal(result.reason, "capped");
    assert.equal(result.wanted, 20);
  });

  it("gives the instances back in the tail: a backlog they drain before a scale-in could act", () => {
    // act: 10 instances, 20,000 lines = 6,240 s ≤ 10 × (900 − 120) s
    const tail = plan(10, 20_000);
    const idle = plan(10, 0);

    // assert
    assert.deepEqual([tail.reason, tail.wanted, tail.ratio], ["tail", 0, 0]);
    assert.deepEqual([idle.reason, idle.wanted, idle.ratio], ["idle", 0, 0]);
  });

  it("counts the interactive backlog first: bulk's goal covers both lanes' work", () => {
    // act: 1 instance; bulk alone is within its goal, bulk after 1,000 interactive lines is not
    const alone = plan(1, 10_000);
    const behind = plan(1, 10_000, 1_000);

    // assert
    assert.equal(alone.wanted, 1);
    assert.ok(behind.wanted > 1, `wanted ${behind.wanted}`);
  });

  it("buys in proportion to the work when a goal is shorter than an instance start (the interactive goal)", () => {
    // act: 5,000 interactive lines = 1,560 s against a 60-second goal: new instances cannot meet
    // it; 1,000 lines (312 s) the instance in service drains before anything bought would start
    const result = plan(1, 0, 5000, { maxInstances: 100 });
    const small = plan(1, 0, 1000, { maxInstances: 100 });

    // assert: 1 + ⌈(1,560 − 60) ÷ 60⌉ = 26
    assert.equal(result.wanted, 26);
    assert.equal(small.reason, "tail");
  });

  it("asks for at least 1 with none in service, so that a component starting from zero is not given back", () => {
    // act: the first copy is starting (none in service), 2,000 lines wait
    const result = plan(0, 2000);

    // assert
    assert.equal(result.wanted, 1);
    assert.equal(result.ratio, 1);
  });

  it("never buys for a backlog within the goal, never wants more than allowed, and what it buys meets the goal by its own reckoning", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 10, max: 600 }),
        (inService, backlog, maxInstances, goalMinutes) => {
          const goalSeconds = goalMinutes * 60;
          const result = plan(inService, backlog, 0, {
            maxInstances,
            demands: [{ backlog, goalSeconds }],
          });
          const work = backlog * 0.312;
          const reach =
            goalSeconds > SCALING_REACTION_SECONDS.out
              ? goalSeconds - SCALING_REACTION_SECONDS.out
              : goalSeconds;
          assert.ok(result.wanted <= Math.max(maxInstances, inService));
          if (work <= inService * reach)
            assert.ok(result.wanted <= inService, "within the goal: nothing bought");
          if (work <= inService * (SCALING_REACTION_SECONDS.in - TAIL_SPARE_SECONDS))
            assert.equal(result.wanted, 0);
          if (result.reason === "buy") {
            const horizon = reach - 360 > 0 ? reach - 360 : reach;
            const drained = inService * reach + (result.wanted - inService) * horizon;
            assert.ok(drained >= work, `${result.wanted} instances drain ${drained} s of ${work} s`);
            const fewer = inService * reach + (result.wanted - 1 - inService) * horizon;
            assert.ok(fewer < work, "one fewer would not");
          }
        },
      ),
      { numRuns: propertyRuns(process.env, 500) },
    );
  });
});
