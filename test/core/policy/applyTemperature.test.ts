/**
 * Temperature scaling of returned probabilities: p^(1/T), renormalised (= softmax(logit / T)).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { applyTemperature } from "../../../core/policy/index.js";

function close(actual: readonly number[], expected: readonly number[], tolerance = 1e-12): void {
  assert.equal(actual.length, expected.length);
  actual.forEach((value, index) => {
    assert.ok(Math.abs(value - (expected[index] ?? Number.NaN)) <= tolerance, `${actual} vs ${expected}`);
  });
}

describe("applyTemperature", () => {
  it("leaves a distribution unchanged at T = 1 or without a temperature", () => {
    const probabilities = [0.7, 0.2, 0.1];

    assert.deepEqual(applyTemperature(probabilities, 1), probabilities);
    assert.deepEqual(applyTemperature(probabilities), probabilities);
  });

  it("flattens with T = 2 as square roots renormalised (0.8 : 0.2 → 2 : 1)", () => {
    close(applyTemperature([0.8, 0.2], 2), [2 / 3, 1 / 3]);
  });

  it("sharpens with T = 0.5 as squares renormalised (0.6 : 0.4 → 9 : 4)", () => {
    close(applyTemperature([0.6, 0.4], 0.5), [9 / 13, 4 / 13]);
  });

  it("equals softmax of the log-probabilities divided by T", () => {
    const probabilities = [0.5, 0.3, 0.15, 0.05];
    const temperature = 1.7;
    const exps = probabilities.map((p) => Math.exp(Math.log(p) / temperature));
    const total = exps.reduce((a, b) => a + b, 0);

    close(
      applyTemperature(probabilities, temperature),
      exps.map((value) => value / total),
    );
  });

  it("keeps zeros at zero and does not underflow for tiny probabilities and small T", () => {
    const result = applyTemperature([1e-300, 1e-310, 0], 0.01);

    assert.equal(result[2], 0);
    assert.equal(result[0], 1);
    assert.ok(result.every(Number.isFinite));
  });

  it("returns a distribution that sums to 1 and keeps the order of the options", () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 12 })
          .filter((ps) => ps.some((p) => p > 1e-200)),
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        (raw, temperature) => {
          const total = raw.reduce((a, b) => a + b, 0);
          const probabilities = raw.map((p) => p / total);
          const result = applyTemperature(probabilities, temperature);
          const sum = result.reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(sum - 1) < 1e-9, `sum ${sum}`);
          for (let i = 0; i < probabilities.length; i += 1) {
            for (let j = 0; j < probabilities.length; j += 1) {
              if ((probabilities[i] ?? 0) > (probabilities[j] ?? 0)) {
                assert.ok((result[i] ?? 0) >= (result[j] ?? 0));
              }
            }
          }
        },
      ),
    );
  });
});
