import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonText, JsonTextError } from "../../../contract/wire/index.js";

describe("JsonText", () => {
  it("prints the text as Python would, and gives the value JSON.parse would", () => {
    const state = new JsonText('{"ticket": "T-1", "2024": 2.0, "1": [1e5]}');
    assert.equal(state.toPython(), '{"ticket": "T-1", "2024": 2.0, "1": [100000.0]}');
    assert.deepEqual(state.toValue(), { 1: [100000], 2024: 2, ticket: "T-1" });
    assert.equal(JSON.stringify(state), JSON.stringify(state.toValue()));
  });

  it("gives a fresh value on each call, so a caller's change does not leak", () => {
    const state = new JsonText('{"a": [1]}');
    (state.toValue() as { a: number[] }).a.push(2);
    assert.deepEqual(state.toValue(), { a: [1] });
  });

  it("keeps __proto__ an ordinary key, as JSON.parse does", () => {
    const value = new JsonText('{"__proto__": {"polluted": true}}').toValue() as Record<string, unknown>;
    assert.deepEqual(Object.keys(value), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal((value as { polluted?: unknown }).polluted, undefined);
  });

  it("validates in the constructor: invalid text, repeated keys and excess depth throw JsonTextError", () => {
    assert.throws(() => new JsonText("{"), JsonTextError);
    assert.throws(() => new JsonText('{"a": 1, "a": 1}'), JsonTextError);
    assert.throws(() => new JsonText("[[[]]]", { maxDepth: 2 }), JsonTextError);
  });
});
