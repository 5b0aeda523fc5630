import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { INSTANT_RANGE, InstantTextError, parseInstant } from "../../../contract/time/parseInstant.js";

describe("parseInstant", () => {
  it("reads a date as midnight UTC and a date-time with its zone as the instant it names", () => {
    assert.equal(parseInstant("2026-12-03").iso, "2026-12-03T00:00:00.000Z");
    assert.equal(parseInstant("2026-12-03T11:00:00+01:00").iso, "2026-12-03T10:00:00.000Z");
    assert.equal(parseInstant("2026-12-03T10:00Z").iso, "2026-12-03T10:00:00.000Z");
    assert.equal(parseInstant("2026-12-03T10:00:00.5Z").ms, Date.parse("2026-12-03T10:00:00.500Z"));
    assert.equal(parseInstant(INSTANT_RANGE.latest).iso, INSTANT_RANGE.latest);
    assert.equal(parseInstant("1970-01-01").ms, 0);
  });

  it("refuses years outside 1970–9999, naming the range, whatever the notation", () => {
    for (const text of [
      "+275760-09-13T00:00:00.000Z",
      "-271821-04-20T00:00:00Z",
      "10000-01-01",
      "1969-12-31T23:59:59Z",
      "1970-01-01T00:30:00+01:00",
      "0050-01-01",
    ]) {
      assert.throws(
        () => parseInstant(text),
        (error: unknown) =>
          error instanceof InstantTextError &&
          /outside the times taken, from 1970-01-01 to 9999-12-31/.test(error.message),
        text,
      );
    }
  });

  it("refuses what Date.parse would guess at: other formats, no zone, days that do not exist", () => {
    const cases: Array<[string, RegExp]> = [
      ["yesterday", /not an ISO-8601 time/],
      ["Dec 3 2026", /not an ISO-8601 time/],
      ["2026", /not an ISO-8601 time/],
      ["", /not an ISO-8601 time/],
      ["2026-12-03T10:00:00", /has no zone: add Z/],
      ["2026-02-30", /no such day/],
      ["2026-12-03T24:00:00Z", /no such day or time/],
      ["2026-12-03T10:00:00+25:00", /no such zone offset/],
    ];
    for (const [text, message] of cases)
      assert.throws(
        () => parseInstant(text),
        (error: unknown) => error instanceof InstantTextError && message.test(error.message),
        text,
      );
  });

  it("gives texts whose order as text is the order of their instants (what DynamoDB compares)", () => {
    const range = fc.integer({ min: 0, max: Date.parse(INSTANT_RANGE.latest) });
    fc.assert(
      fc.property(range, range, (a, b) => {
        const x = parseInstant(new Date(a).toISOString());
        const y = parseInstant(new Date(b).toISOString());
        assert.equal(x.ms, a);
        assert.equal(Math.sign(a - b), x.iso < y.iso ? -1 : x.iso > y.iso ? 1 : 0);
      }),
    );
  });
});
