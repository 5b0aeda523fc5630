import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildDemoBatch, withIdSuffix } from "../../../local/demo/buildDemoBatch.js";

describe("buildDemoBatch", () => {
  it("repeats the sample lines to the asked count, each repeat's items under ids of their own", () => {
    const body = `${JSON.stringify({ id: "DOC-1", policy: "p" })}\nnot json\n`;
    const batch = buildDemoBatch({ key: "incoming/a.jsonl", body, lines: 2 }, 5);
    const lines = batch.body.trimEnd().split("\n");
    assert.equal(batch.lines, 5);
    assert.deepEqual(lines, [
      JSON.stringify({ id: "DOC-1", policy: "p" }),
      "not json",
      JSON.stringify({ id: "DOC-1-r2", policy: "p" }),
      "not json",
      JSON.stringify({ id: "DOC-1-r3", policy: "p" }),
    ]);
  });

  it("suffixes a JSON object's string id and leaves every other line as written", () => {
    assert.equal(withIdSuffix('{"id":"a","x":1}', "t"), '{"id":"a-t","x":1}');
    for (const line of ["not json", "[1,2]", "null", '{"id":7}', '{"x":1}']) {
      assert.equal(withIdSuffix(line, "t"), line);
    }
  });
});
