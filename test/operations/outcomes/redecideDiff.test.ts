import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { decidedBy, diffRedecided, formatRedecideDiff } from "../../../operations/outcomes/index.js";

const outcome = (id: string, status: string, answers: Record<string, string | number>, extra = {}) =>
  ({
    policy: "p",
    id,
    policy_status: `p#${status}`,
    status,
    answers: Object.fromEntries(
      Object.entries(answers).map(([qid, answer]) => [
        qid,
        { answer, probability: 0.9, distribution: {}, threshold: 0.5, source: "model" },
      ]),
    ),
    rules_fired: [],
    source: { kind: "sqs" },
    created_at: "2026-12-01T00:00:00.000Z",
    updated_at: "2026-12-01T00:00:00.000Z",
    ...extra,
  }) as StoredOutcome;

describe("diffRedecided", () => {
  it("lists each status and answer change with id, old and new, and the items not decided again", () => {
    const diff = diffRedecided({
      policy: "p",
      selected: { model_sha256: "a".repeat(64) },
      pairs: [
        {
          before: outcome("1", "decided", { q: "x", level: 3 }),
          after: outcome("1", "decided", { q: "x", level: "3" }),
        },
        {
          before: outcome("2", "decided", { q: "x", level: 3 }),
          after: outcome(
            "2",
            "fallback",
            { q: "y", level: 3 },
            { model_sha256: "b".repeat(64), policy_version: 4 },
          ),
        },
        { before: outcome("3", "fallback", { q: "x" }), after: undefined },
      ],
      keptReviewed: [outcome("4", "reviewed", { q: "x" })],
    });
    assert.equal(diff.sent, 3);
    assert.equal(diff.decided_again, 2);
    assert.deepEqual(diff.pending, ["3"]);
    assert.deepEqual(diff.kept_reviewed, ["4"]);
    assert.equal(diff.status_changed, 1);
    assert.equal(diff.answer_changed, 1, '3 and "3" are the same level');
    assert.deepEqual(diff.status_changes, [{ id: "2", old: "decided", new: "fallback" }]);
    assert.deepEqual(diff.questions, { q: { changed: 1, changes: [{ id: "2", old: "x", new: "y" }] } });
    const text = formatRedecideDiff(diff).join("\n");
    assert.match(
      text,
      /decided again 2 of 3 sent \(model_sha256 a+\); 1 changed status, 1 changed an answer; 1 reviewed by a person kept; 1 not decided again yet/,
    );
    assert.match(text, /q 2: x → y/);
  });
});

describe("decidedBy", () => {
  it("selects by model sha256 (any case) and policy version as text, both when both are given", () => {
    const old = { model_sha256: "ab".repeat(32), policy_version: 3 };
    assert.equal(decidedBy(old, { modelSha256: "AB".repeat(32) }), true);
    assert.equal(decidedBy(old, { modelSha256: "cd".repeat(32) }), false);
    assert.equal(decidedBy(old, { policyVersion: "3" }), true);
    assert.equal(decidedBy(old, { modelSha256: "ab".repeat(32), policyVersion: "4" }), false);
    assert.equal(
      decidedBy({}, { policyVersion: "3" }),
      false,
      "an outcome without the field is not selected",
    );
    assert.equal(decidedBy(old, {}), false, "nothing selected without a selector");
  });
});
