import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { inertJson, inertLines, inertText } from "../../cli/inertText.js";

/** What a terminal acts on instead of showing. */
const ACTIVE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/u;

describe("inertText", () => {
  it("writes ESC, CR and bidirectional overrides as visible escapes", () => {
    assert.equal(inertText("t-1\r\u001b[2Kdecided TOTALLY-LEGIT"), "t-1\\r\\x1b[2Kdecided TOTALLY-LEGIT");
    assert.equal(inertText("invoice-\u202egnp.exe\u009b"), "invoice-\\u202egnp.exe\\x9b");
    assert.equal(inertText("plain ids stay: 商品-42 🙂"), "plain ids stay: 商品-42 🙂");
  });

  it("leaves nothing a terminal acts on, for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        assert.equal(ACTIVE.test(inertText(text)), false);
      }),
    );
  });

  it("keeps the newlines between lines and nothing else", () => {
    assert.equal(inertLines("a\u001bb\nc\rd\n"), "a\\x1bb\nc\\rd\n");
  });
});

describe("inertJson", () => {
  it("is JSON of the same value with nothing a terminal acts on, indented or not", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary" }), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = inertJson(value, indent);
        assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
        assert.equal(ACTIVE.test(text.replaceAll("\n", "")), false);
      }),
    );
    assert.equal(inertJson({ id: "a\u009b\u202e" }), '{"id":"a\\u009b\\u202e"}');
  });
});
