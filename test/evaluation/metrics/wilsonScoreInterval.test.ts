import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { effectiveSampleSize } from "../../../evaluation/metrics/effectiveSampleSize.js";
import {
  weightedWilsonInterval,
  wilsonScoreInterval,
  wilsonUpperBound,
} from "../../../evaluation/metrics/wilsonScoreInterval.js";

const round4 = (value: number): number => Number(value.toFixed(4));

describe("wilsonScoreInterval", () => {
  it("matches the published 95 % score intervals of Newcombe (1998), Table I, method 3", () => {
    // Newcombe RG. Two-sided confidence intervals for the single proportion: comparison of seven
    // methods. Statistics in Medicine 17 (1998) 857–872 — the score method without continuity
    // correction for his four examples.
    const published: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];

    for (const [successes, n, lower, upper] of published) {
      const interval = wilsonScoreInterval(successes, n);
      assert.deepEqual([round4(interval.lower), round4(interval.upper)], [lower, upper], `${successes}/${n}`);
    }
  });

  it("is the closed form (p̂ + z²/2n ± z√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), hand-computed for 46 of 50", () => {
    // p̂ = 0.92, z² = 3.841459: centre 0.92 + 0.038415 = 0.958415; spread
    // 1.959964 · √(0.001472 + 0.000384) = 0.084441; scale 1.076829 → [0.811618, 0.968450].
    const interval = wilsonScoreInterval(46, 50);

    assert.ok(Math.abs(interval.lower - 0.811618) < 1e-5, String(interval.lower));
    assert.ok(Math.abs(interval.upper - 0.96845) < 1e-5, String(interval.upper));
  });

  it("says nothing for no trials, the point for z = 0, and refuses more successes than trials", () => {
    assert.deepEqual(wilsonScoreInterval(0, 0), { lower: 0, upper: 1 });
    assert.deepEqual(wilsonScoreInterval(3, 10, 0), { lower: 0.3, upper: 0.3 });
    assert.throws(() => wilsonScoreInterval(11, 10), RangeError);
  });

  it("gives the one-sided upper bound at z = 1.645 (0 of 100 → 0.02635)", () => {
    assert.ok(Math.abs(wilsonUpperBound(0, 100, 1.645) - 0.026347) < 1e-5);
    assert.equal(wilsonUpperBound(0, 0, 1.645), 1);
  });
});

describe("weightedWilsonInterval", () => {
  it("equals the plain interval when every weight is 1", () => {
    assert.deepEqual(weightedWilsonInterval(46, 50, 50), wilsonScoreInterval(46, 50));
  });

  it("counts an equally weighted sample once: 46 of 50 audit items at weight 10 give the same interval", () => {
    // Σw = 500, Σw² = 5000: effective n = 50, proportion 460/500.
    const weighted = weightedWilsonInterval(460, 500, 5000);
    const plain = wilsonScoreInterval(46, 50);

    assert.ok(Math.abs(weighted.lower - plain.lower) < 1e-12);
    assert.ok(Math.abs(weighted.upper - plain.upper) < 1e-12);
  });

  it("is wider than the plain interval of the same count when the weights differ", () => {
    // 10 items at weight 1 and 10 at weight 10, all confirmed but one of the light ones.
    const weights = [...Array.from({ length: 10 }, () => 1), ...Array.from({ length: 10 }, () => 10)];
    const total = weights.reduce((a, b) => a + b, 0);
    const squares = weights.reduce((a, b) => a + b * b, 0);

    const weighted = weightedWilsonInterval(total - 1, total, squares);
    const plain = wilsonScoreInterval(19, 20);

    assert.ok(weighted.upper - weighted.lower > plain.upper - plain.lower);
  });
});

describe("effectiveSampleSize", () => {
  it("is the count for equal weights and (Σw)²/Σw² otherwise", () => {
    assert.equal(effectiveSampleSize([1, 1, 1, 1]), 4);
    assert.equal(effectiveSampleSize([5, 5]), 2);
    assert.ok(Math.abs(effectiveSampleSize([1, 1, 10]) - 144 / 102) < 1e-12);
    assert.equal(effectiveSampleSize([]), 0);
  });
});
