import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { pythonJsonDumps } from "../../../adapter/engine/prompt/pythonJson.js";
import {
  JsonText,
  parseJsonText,
  pythonFloatRepr,
  pythonJsonDumpsNode,
} from "../../../contract/wire/index.js";
import { loadPythonStates } from "./pythonStates.fixture.js";

const fixtures = loadPythonStates();

describe("pythonJsonDumpsNode", () => {
  for (const fixture of fixtures.cases) {
    it(`prints what Python's json.dumps printed: ${fixture.name}`, () => {
      assert.equal(pythonJsonDumpsNode(parseJsonText(fixture.text)), fixture.python_dumps);
      assert.equal(new JsonText(fixture.text).toPython(), fixture.python_dumps);
    });
  }

  it("prints any JSON text without fractions or exponents as the engine prints its value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        // Integer-valued doubles are integers in JSON.stringify's spelling; integer-like keys
        // come first in both, since the text is written from a JavaScript object.
        const text = JSON.stringify(value);
        // Past 2**53 the engine can only print a double (as a float); the text keeps the integer.
        const numbers = text.replace(/"(?:[^"\\]|\\.)*"/g, "");
        fc.pre(!/[.eE]/.test(numbers) && !/\d{16}/.test(numbers));
        assert.equal(pythonJsonDumpsNode(parseJsonText(text)), pythonJsonDumps(JSON.parse(text)));
      }),
    );
  });
});

describe("pythonFloatRepr", () => {
  it("lays out shortest round-trip digits as Python's repr does", () => {
    const cases: Array<[number, string]> = [
      [2, "2.0"],
      [-0, "-0.0"],
      [0, "0.0"],
      [1e5, "100000.0"],
      [1e-7, "1e-07"],
      [1e16, "1e+16"],
      [1e15, "1000000000000000.0"],
      [0.0001, "0.0001"],
      [0.00001, "1e-05"],
      [1.5e300, "1.5e+300"],
      [5e-324, "5e-324"],
      [-2.5e-5, "-2.5e-05"],
      [Number.POSITIVE_INFINITY, "Infinity"],
      [Number.NEGATIVE_INFINITY, "-Infinity"],
    ];
    for (const [value, expected] of cases) assert.equal(pythonFloatRepr(value), expected, String(value));
  });

  it("reads back to the same double for any finite value", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        assert.ok(Object.is(Number(pythonFloatRepr(value)), value));
      }),
    );
  });
});
