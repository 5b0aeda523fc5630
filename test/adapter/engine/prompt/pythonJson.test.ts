import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { pythonJsonDumps, pythonJsonString } from "../../../../adapter/engine/prompt/pythonJson.js";
import { propertyRuns } from "../../../../lab/reliability/propertyRuns.js";

describe("pythonJsonDumps", () => {
  it("uses Python's separators and keeps key order", () => {
    const text = pythonJsonDumps({ b: 1, a: [true, null, "x"], c: {} });
    assert.equal(text, '{"b": 1, "a": [true, null, "x"], "c": {}}');
  });

  it("keeps non-ASCII characters and escapes control characters as Python does", () => {
    const text = pythonJsonString('é ü 日本 \u2028 "q" \\ \n\r\t\b\f \u0001 \u001f \u007f');
    assert.equal(text, '"é ü 日本 \u2028 \\"q\\" \\\\ \\n\\r\\t\\b\\f \\u0001 \\u001f \u007f"');
  });

  it("prints floats with Python's repr layout", () => {
    const cases: Array<[number, string]> = [
      [0.1, "0.1"],
      [1e-7, "1e-07"],
      [1.5e20, "1.5e+20"],
      [1e16, "1e+16"],
      [-0.0001, "-0.0001"],
      [0.00001234, "1.234e-05"],
      [2.5, "2.5"],
      [2 ** 53 + 2, "9007199254740994.0"],
      [42, "42"],
    ];
    for (const [value, expected] of cases) assert.equal(pythonJsonDumps(value), expected, String(value));
  });

  it("produces JSON that parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const normalised = JSON.parse(JSON.stringify(value));
        assert.deepEqual(JSON.parse(pythonJsonDumps(normalised)), normalised);
      }),
      { numRuns: propertyRuns(process.env, 300) },
    );
  });
});
