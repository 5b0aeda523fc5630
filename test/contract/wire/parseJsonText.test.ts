import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { JsonTextError, jsonValueOf, parseJsonText } from "../../../contract/wire/index.js";

function errorOf(text: string, options?: Parameters<typeof parseJsonText>[1]): JsonTextError {
  try {
    parseJsonText(text, options);
  } catch (error) {
    assert.ok(error instanceof JsonTextError, String(error));
    return error;
  }
  assert.fail(`parsed ${JSON.stringify(text)}`);
}

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === "object")
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe("parseJsonText", () => {
  it("keeps keys in written order, number literals as written, and the offsets of every node", () => {
    const text = '{"b": 2.0, "2024": [1E5, -0], "1": {"x": null}}';
    const node = parseJsonText(text);
    assert.equal(node.kind, "object");
    assert.deepEqual(
      node.members.map((member) => member.key),
      ["b", "2024", "1"],
    );
    const [b, year] = node.members;
    assert.deepEqual(b?.value, { kind: "number", raw: "2.0", start: 6, end: 9 });
    assert.ok(year?.value.kind === "array");
    assert.deepEqual(
      year.value.items.map((item) => (item.kind === "number" ? item.raw : item.kind)),
      ["1E5", "-0"],
    );
    assert.equal(text.slice(year.value.start, year.value.end), "[1E5, -0]");
    assert.deepEqual([node.start, node.end], [0, text.length]);
  });

  it("decodes every escape, surrogate pairs included", () => {
    const text = '"\\u00e9\\ud83d\\ude00\\/\\"\\\\\\b\\f\\n\\r\\t"';
    const node = parseJsonText(text);
    assert.deepEqual(node, { kind: "string", value: 'é😀/"\\\b\f\n\r\t', start: 0, end: text.length });
  });

  it("refuses a repeated key anywhere, naming the object, the key and where it is", () => {
    const error = errorOf('{"a": [1, {"k": 1,\n  "k": 2}]}');
    assert.equal(error.kind, "duplicate-key");
    assert.equal(error.reason, 'duplicate key "k"');
    assert.equal(error.key, "k");
    assert.deepEqual(error.path, ["a", 1]);
    assert.deepEqual([error.position, error.line, error.column], [21, 2, 3]);
  });

  it("reports every repeated key to onDuplicateKey and keeps parsing", () => {
    const found: JsonTextError[] = [];
    const node = parseJsonText('{"a": 1, "a": 2, "b": {"c": 0, "\\u0063": 1}}', {
      onDuplicateKey: (error) => found.push(error),
    });
    assert.deepEqual(
      found.map((error) => [error.path, error.key]),
      [
        [[], "a"],
        [["b"], "c"],
      ],
    );
    assert.deepEqual(jsonValueOf(node), { a: 2, b: { c: 1 } });
  });

  it("refuses nesting deeper than maxDepth (64 by default), with the path where it went too deep", () => {
    assert.doesNotThrow(() => parseJsonText(`${"[".repeat(64)}${"]".repeat(64)}`));
    const error = errorOf(`${"[".repeat(65)}${"]".repeat(65)}`);
    assert.equal(error.kind, "too-deep");
    assert.equal(error.path.length, 64);
    assert.equal(errorOf('{"a": {"b": []}}', { maxDepth: 2 }).kind, "too-deep");
    assert.deepEqual(errorOf('{"a": {"b": []}}', { maxDepth: 2 }).path, ["a", "b"]);
  });

  it("refuses what strict JSON refuses, with line and column", () => {
    const cases: Array<[string, RegExp]> = [
      ["", /unexpected end/],
      ["{", /expected a string key/],
      ['{"a" 1}', /expected ":"/],
      ["[1,]", /unexpected character "]"/],
      ["[1 2]", /expected "," or "]"/],
      ['{"a": 1,}', /expected a string key/],
      ["01", /unexpected text after/],
      ["1.", /unexpected text after/],
      [".5", /unexpected character/],
      ["+1", /unexpected character/],
      ["NaN", /unexpected character/],
      ["tru", /unexpected character/],
      ["'a'", /unexpected character/],
      ['"a\tb"', /control character/],
      ['"\\x"', /invalid escape/],
      ['"\\u12"', /invalid \\u escape/],
      ['"abc', /unterminated string/],
      ["[1] [2]", /unexpected text after/],
      ["\u00a0 1", /unexpected character/],
    ];
    for (const [text, reason] of cases) {
      const error = errorOf(text);
      assert.equal(error.kind, "syntax", text);
      assert.match(error.reason, reason, text);
      assert.throws(() => JSON.parse(text), SyntaxError, text);
    }
    const error = errorOf('{\n  "a": [1,\n    x]}');
    assert.deepEqual([error.line, error.column, error.position], [3, 5, 17]);
    assert.deepEqual(error.path, ["a", 1]);
    assert.match(error.message, /at line 3, column 5/);
  });

  it("agrees with JSON.parse on any JSON text, compact or indented, and measures depth exactly", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, indented) => {
        const text = JSON.stringify(value, null, indented ? 2 : undefined);
        const node = parseJsonText(text, { maxDepth: 100 });
        assert.deepEqual(jsonValueOf(node), JSON.parse(text));
        const depth = depthOf(value);
        assert.doesNotThrow(() => parseJsonText(text, { maxDepth: depth }));
        if (depth > 0) assert.equal(errorOf(text, { maxDepth: depth - 1 }).kind, "too-deep");
      }),
    );
  });

  it("finds a key repeated in any object whatever its escapes, at that object's path", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }),
        fc.string(),
        fc.jsonValue({ maxDepth: 1 }),
        (inner, wrapperKey, extra) => {
          const [key] = Object.keys(inner);
          fc.pre(key !== undefined);
          // The first key again, spelled with \u escapes so a text compare would miss it.
          const escaped = `"${[...key].map((c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`).join("")}"`;
          const repeated = `${JSON.stringify(inner).slice(0, -1)},${escaped}:${JSON.stringify(extra)}}`;
          const error = errorOf(`{${JSON.stringify(wrapperKey)}: [1, ${repeated}]}`);
          assert.equal(error.kind, "duplicate-key");
          assert.deepEqual([error.path, error.key], [[wrapperKey, 1], key]);
        },
      ),
    );
  });

  it("never throws anything but JsonTextError, and only for text JSON.parse refuses or that repeats keys", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((text) => text.slice(0, -1)),
        ),
        (text) => {
          let parsed = true;
          try {
            parseJsonText(text);
          } catch (error) {
            assert.ok(error instanceof JsonTextError);
            parsed = false;
          }
          let standard = true;
          try {
            JSON.parse(text);
          } catch {
            standard = false;
          }
          if (parsed) assert.ok(standard, text);
        },
      ),
    );
  });
});
