/**
 * The drift panel's option rows (`console/web/shareRows.ts`): every option in its order up to the
 * bound; beyond it the largest ones and one "others" row that sums the rest and names them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SHARE_LIST_ROWS, shareRows } from "../../console/web/shareRows.js";

const rows = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ name: `option_${index}`, a: (index + 1) / 1000, b: 0.001 }));

describe("the drift panel's option rows", () => {
  it("lists every option, in order, up to the bound (batch-classification's 12 fit)", () => {
    assert.ok(SHARE_LIST_ROWS >= 12);
    assert.deepEqual(shareRows(rows(12)), rows(12));
    assert.deepEqual(shareRows(rows(SHARE_LIST_ROWS)), rows(SHARE_LIST_ROWS));
  });

  it("beyond the bound keeps the largest in their order and sums the rest as others, named", () => {
    const many = rows(20);
    // option_0 is the largest on the other side: kept too.
    many[0] = { name: "option_0", a: 0, b: 0.5 };
    const shown = shareRows(many, 6);
    assert.deepEqual(
      shown.map((row) => row.name),
      ["option_0", "option_16", "option_17", "option_18", "option_19", "others (15 options)"],
    );
    const others = shown.at(-1);
    assert.deepEqual(
      others?.others,
      Array.from({ length: 15 }, (_, index) => `option_${index + 1}`),
    );
    const sum = (side: "a" | "b") => many.reduce((total, row) => total + row[side], 0);
    const shownSum = (side: "a" | "b") => shown.reduce((total, row) => total + row[side], 0);
    assert.ok(Math.abs(sum("a") - shownSum("a")) < 1e-12, "the shares still add up");
    assert.ok(Math.abs(sum("b") - shownSum("b")) < 1e-12);
  });
});
