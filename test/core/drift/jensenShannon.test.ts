import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { jensenShannon, jensenShannonNoise } from "../../../core/drift/index.js";

describe("jensenShannon", () => {
  it("is 0 for the same mix, 1 bit for mixes with nothing in common, and symmetric", () => {
    assert.equal(jensenShannon([30, 70], [3, 7], 0), 0);
    assert.equal(jensenShannon([10, 0], [0, 10], 0), 1);
    assert.equal(jensenShannon([50, 30, 20], [20, 30, 50], 0), jensenShannon([20, 30, 50], [50, 30, 20], 0));
  });

  it("gives the textbook value for a moved mix (0.5/0.3/0.2 against 0.2/0.3/0.5 ≈ 0.0958 bits)", () => {
    const distance = jensenShannon([50, 30, 20], [20, 30, 50], 0);

    assert.ok(Math.abs(distance - 0.09584) < 1e-4, String(distance));
  });

  it("stays finite with empty categories; smoothing pulls a few counts towards the pooled mix", () => {
    const raw = jensenShannon([5, 0], [0, 5], 0);
    const smoothed = jensenShannon([5, 0], [0, 5], 0.5);

    assert.equal(raw, 1);
    assert.ok(smoothed > 0 && smoothed < raw, String(smoothed));
  });

  it("keeps identical mixes at 0 whatever the volumes and the categories empty on both sides", () => {
    assert.equal(jensenShannon([6, 4, 0, 0], [600, 400, 0, 0], 0.5), 0);
  });

  it("is NaN for an empty side without smoothing, and refuses sides of different lengths", () => {
    assert.ok(Number.isNaN(jensenShannon([0, 0], [1, 2], 0)));
    assert.throws(() => jensenShannon([1], [1, 2], 0.5), RangeError);
  });

  it("lies in [0, 1] for any counts (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(1000), fc.nat(1000)), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0, 0.5, 1),
        (pairs, smoothing) => {
          const a = pairs.map(([x]) => x);
          const b = pairs.map(([, y]) => y);
          const distance = jensenShannon(a, b, smoothing);
          return Number.isNaN(distance) ? smoothing === 0 : distance >= 0 && distance <= 1;
        },
      ),
    );
  });
});

describe("jensenShannonNoise", () => {
  it("is (k − 1)(1/n₁ + 1/n₂)/(8 ln 2) over the categories in use", () => {
    const noise = jensenShannonNoise([60, 40, 0], [600, 400, 0]);

    assert.ok(Math.abs(noise - (1 * (1 / 100 + 1 / 1000)) / (8 * Math.LN2)) < 1e-12);
  });
});
