/**
 * `decisions outcomes show`'s history lines: an outcome a redecide replaced is listed first, with
 * each of its reviews under its reviewer's own name.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { formatReviewHistory } from "../../../operations/outcomes/index.js";

describe("formatReviewHistory", () => {
  it("lists the replaced outcomes' reviews, each answer under its reviewer's name", () => {
    const outcome = {
      policy: "ticket-routing",
      id: "T-1",
      policy_status: "ticket-routing#fallback",
      status: "fallback",
      answers: {},
      rules_fired: [],
      source: { kind: "sqs" },
      created_at: "2026-12-02T10:00:00.000Z",
      updated_at: "2026-12-02T10:00:00.000Z",
      model: "tiny",
      history: [
        {
          status: "reviewed",
          created_at: "2026-12-01T10:00:00.000Z",
          updated_at: "2026-12-01T11:00:01.000Z",
          superseded_at: "2026-12-02T10:00:00.000Z",
          reviewed_by: "bob",
          reviews: [
            { by: "alice", at: "2026-12-01T11:00:00.000Z", answers: { queue: "billing" } },
            { by: "bob", at: "2026-12-01T11:00:01.000Z", answers: { priority: "P1" }, amendment: true },
          ],
        },
      ],
    } as StoredOutcome;

    assert.deepEqual(formatReviewHistory(outcome), [
      "2026-12-01T10:00:00.000Z  reviewed (replaced at 2026-12-02T10:00:00.000Z)",
      "  2026-12-01T11:00:00.000Z  reviewed by alice: queue=billing",
      "  2026-12-01T11:00:01.000Z  amended by bob: priority=P1",
      "2026-12-02T10:00:00.000Z  fallback by tiny",
    ]);
  });
});
