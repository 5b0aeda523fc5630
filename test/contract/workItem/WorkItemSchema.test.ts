import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  isStorableKey,
  MAX_ITEM_ID_BYTES,
  WorkItemSchema,
} from "../../../contract/workItem/WorkItemSchema.js";

describe("WorkItemSchema", () => {
  it("refuses an id with a control character, naming the character and where it is", () => {
    const item = { id: "t-1\r\u001b[2Kdecided TOTALLY-LEGIT", policy: "ticket-routing", state: "x" };

    const parsed = WorkItemSchema.safeParse(item);

    assert.equal(parsed.success, false);
    const issue = parsed.error?.issues[0];
    assert.deepEqual(issue?.path, ["id"]);
    assert.match(issue?.message ?? "", /must not contain control characters .*found U\+000D at index 3/);
  });

  it("refuses DEL, C1 controls and bidirectional overrides in ids and policy names", () => {
    for (const text of ["a\u007fb", "a\u009b31mb", "invoice-\u202egnp.exe", "a\u2066b"]) {
      assert.equal(WorkItemSchema.safeParse({ id: text, policy: "p", state: "x" }).success, false, text);
      assert.equal(WorkItemSchema.safeParse({ id: "i", policy: text, state: "x" }).success, false, text);
      assert.equal(isStorableKey(text, MAX_ITEM_ID_BYTES), false, text);
    }
  });

  it("accepts ids of printable text in any script", () => {
    for (const id of ["T-1", "商品-42", "ünïcødé/ids:with spaces", "emoji-🙂"]) {
      assert.equal(WorkItemSchema.safeParse({ id, policy: "p", state: "x" }).success, true, id);
      assert.equal(isStorableKey(id, MAX_ITEM_ID_BYTES), true, id);
    }
  });
});
