import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../../cli/errors.js";
import { readNumberFlag } from "../../cli/readNumberFlag.js";

describe("readNumberFlag", () => {
  const price = { min: 0, max: 10_000, unit: "US dollars per instance hour" };

  it("reads decimal notation within the range", () => {
    assert.equal(readNumberFlag("--instance-price", "1.006", price), 1.006);
    assert.equal(readNumberFlag("--instance-price", "0", price), 0);
    assert.equal(readNumberFlag("--instance-price", ".5", price), 0.5);
    assert.equal(readNumberFlag("--instance-price", "1e3", price), 1000);
    assert.equal(readNumberFlag("--window", "12", { min: 1, max: 100, integer: true }), 12);
  });

  it("refuses hexadecimal, binary, empty, infinite and out-of-range numbers, naming notation and range", () => {
    for (const text of [
      "0x10",
      "0b1",
      "0o7",
      "",
      " ",
      "1e308",
      "Infinity",
      "NaN",
      "-1",
      "10000.5",
      "1,5",
      "1_000",
    ]) {
      assert.throws(
        () => readNumberFlag("--instance-price", text, price),
        (error: unknown) =>
          error instanceof UsageError &&
          error.message ===
            `--instance-price must be a decimal number from 0 to 10000 (US dollars per instance hour), got "${text}"`,
        text,
      );
    }
    assert.throws(
      () => readNumberFlag("--window", "1.5", { min: 1, max: 100, integer: true }),
      /a whole number from 1 to 100/,
    );
    assert.throws(
      () => readNumberFlag("--window", "1e1", { min: 1, max: 100, integer: true }),
      /a whole number/,
    );
  });
});
