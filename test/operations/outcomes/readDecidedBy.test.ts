import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { readDecidedBy, waitForRedecides } from "../../../operations/outcomes/index.js";

const OLD = "a".repeat(64);
const NEW = "b".repeat(64);

function outcome(id: string, model: string, updatedAt: string, status = "decided"): StoredOutcome {
  return { policy: "p", id, model_sha256: model, updated_at: updatedAt, status } as unknown as StoredOutcome;
}

/** A table of pages, as `OutcomesReader.all` yields them, that records the status it was asked for. */
function pagesOf(pages: StoredOutcome[][], asked: unknown[] = []) {
  return {
    async *all(_policy: string, options?: { status?: string }) {
      asked.push(options?.status);
      for (const page of pages) yield page;
    },
  };
}

describe("readDecidedBy", () => {
  it("takes, across pages, the outcomes the old model decided within the range", async () => {
    // prepare
    const table = pagesOf([
      [outcome("1", OLD, "2026-12-01T00:00:00.000Z"), outcome("2", NEW, "2026-12-01T00:00:00.000Z")],
      [
        outcome("3", OLD, "2026-12-02T00:00:00.000Z"),
        outcome("4", OLD.toUpperCase(), "2026-12-03T00:00:00.000Z"),
      ],
    ]);

    // act
    const chosen = await readDecidedBy(
      table,
      "p",
      { modelSha256: OLD },
      { since: "2026-12-01T12:00:00.000Z" },
    );

    // assert
    assert.deepEqual(
      chosen.map((o) => o.id),
      ["3", "4"],
    );
  });

  it("asks the table for the status given, and for every status without one", async () => {
    const asked: unknown[] = [];
    await readDecidedBy(pagesOf([], asked), "p", { modelSha256: OLD }, { status: "fallback" });
    await readDecidedBy(pagesOf([], asked), "p", { modelSha256: OLD });
    assert.deepEqual(asked, ["fallback", undefined]);
  });
});

describe("waitForRedecides", () => {
  it("returns the items whose outcome is newer than the one read, and names the rest", async () => {
    // prepare: item 1 already has a newer outcome; item 2 still the one its redecide read
    const stored = new Map([
      ["1", outcome("1", NEW, "2026-12-03T10:00:01.000Z")],
      ["2", outcome("2", OLD, "2026-12-03T09:00:00.000Z")],
    ]);
    const table = { get: async (_policy: string, id: string) => stored.get(id) };
    const seen: string[] = [];

    // act
    const { redecided, notRedecided } = await waitForRedecides(
      table,
      [
        { ok: true, policy: "p", id: "1", updatedAt: "2026-12-03T09:00:00.000Z", messageId: "m1" },
        { ok: true, policy: "p", id: "2", updatedAt: "2026-12-03T09:00:00.000Z", messageId: "m2" },
        { ok: false, policy: "p", id: "3", code: "X", message: "not sent" },
      ],
      0.01,
      (key) => seen.push(key),
    );

    // assert
    assert.deepEqual([...redecided.keys()], ["1"]);
    assert.deepEqual(notRedecided, ["p/2"]);
    assert.deepEqual(seen, ["p/1"]);
  });
});
