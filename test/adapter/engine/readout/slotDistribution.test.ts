import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  PROBABILITY_FLOOR,
  readSlots,
  softmax,
} from "../../../../adapter/engine/readout/slotDistribution.js";
import { commonPrefixLength } from "../../../../adapter/engine/sequence/commonPrefixLength.js";

describe("readSlots", () => {
  it("renormalises biased slot probabilities to the conditional distribution", () => {
    const distribution = new Map([
      [10, 0.5],
      [11, 0.3],
      [12, 0.1],
      [99, 0.1],
    ]);
    const slots = readSlots(distribution, [10, 11, 12], true);
    assert.ok(slots);
    const expected = [0.5 / 0.9, 0.3 / 0.9, 0.1 / 0.9];
    for (const [i, p] of slots.probabilities.entries()) assert.ok(Math.abs(p - (expected[i] ?? 0)) < 1e-12);
    assert.ok(Math.abs(slots.slotMass - 0.9) < 1e-12);
    assert.ok(Math.abs((slots.scores[0] ?? 0) - Math.log(0.5 / 0.9)) < 1e-12);
  });

  it("keeps full-vocabulary log-probabilities when not renormalising", () => {
    const slots = readSlots(
      new Map([
        [1, 0.2],
        [2, 0.2],
        [3, 0.6],
      ]),
      [1, 2],
      false,
    );
    assert.ok(slots);
    assert.ok(Math.abs((slots.scores[0] ?? 0) - Math.log(0.2)) < 1e-12);
    assert.deepEqual(slots.probabilities, [0.5, 0.5]);
  });

  it("reports a missing slot token as undefined", () => {
    assert.equal(readSlots(new Map([[1, 1]]), [1, 2], true), undefined);
  });

  it("floors an underflowed probability so scores stay finite", () => {
    const slots = readSlots(
      new Map([
        [1, 1],
        [2, 0],
      ]),
      [1, 2],
      true,
    );
    assert.ok(slots);
    assert.equal(slots.scores[1], Math.log(PROBABILITY_FLOOR));
    assert.ok(slots.probabilities.every(Number.isFinite));
  });

  it("sharpens with a temperature below 1 and flattens above", () => {
    const scores = [Math.log(0.7), Math.log(0.3)];
    const cold = softmax(scores, 0.5);
    const hot = softmax(scores, 2);
    assert.ok((cold[0] ?? 0) > 0.7 && (hot[0] ?? 0) < 0.7 && (hot[0] ?? 0) > 0.5);
    assert.throws(() => softmax(scores, 0), RangeError);
  });

  it("always yields a distribution that sums to 1", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e4, max: 50, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        (scores, temperature) => {
          const p = softmax(scores, temperature);
          const total = p.reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(total - 1) < 1e-9);
          assert.ok(p.every((value) => value >= 0 && value <= 1));
        },
      ),
    );
  });
});

describe("commonPrefixLength", () => {
  it("counts the equal leading tokens", () => {
    assert.equal(commonPrefixLength([1, 2, 3], [1, 2, 4, 5]), 2);
    assert.equal(commonPrefixLength([], [1]), 0);
    assert.equal(commonPrefixLength([1, 2], [1, 2]), 2);
  });
});
