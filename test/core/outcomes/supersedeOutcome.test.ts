import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  OUTCOME_HISTORY_ENTRIES,
  type Outcome,
  payloadSha256,
  summarizePayload,
  supersedeMarkerText,
} from "../../../core/outcomes/index.js";
import { resolveStanding } from "../../../core/outcomes/supersedeOutcome.js";

function outcome(updatedAt: string, extra: Partial<Outcome> = {}): Outcome {
  return {
    policy: "p",
    id: "i",
    policy_status: "p#decided",
    status: "decided",
    rules_fired: [],
    source: { kind: "sqs", message_id: `m-${updatedAt}`, receive_count: 1 },
    created_at: updatedAt,
    updated_at: updatedAt,
    ...extra,
  };
}

describe("payload hash", () => {
  it("is the same for another key order, spacing or submitted_at, and differs for another fact", () => {
    const a = '{"id":"1","policy":"p","state":{"x":1,"y":[1,2]},"facts":{"tier":"gold"}}';
    const b =
      '{ "facts": {"tier": "gold"}, "state": {"y": [1, 2], "x": 1}, "policy": "p", "id": "1", "submitted_at": "2026-01-01T00:00:00Z" }';
    const c = '{"id":"1","policy":"p","state":{"x":1,"y":[1,2]},"facts":{"tier":"silver"}}';
    const hash = (text: string) => payloadSha256(text, JSON.parse(text));
    assert.equal(hash(a), hash(b));
    assert.notEqual(hash(a), hash(c));
    assert.match(payloadSha256("not json", undefined), /^[0-9a-f]{64}$/);
  });

  it("keeps the text up to the bound, and only its size past it", () => {
    assert.deepEqual(summarizePayload("{}", {}, 2).work_item, "{}");
    const big = summarizePayload('{"a":1}', { a: 1 }, 6);
    assert.equal(big.work_item, undefined);
    assert.equal(big.work_item_bytes, 7);
  });
});

describe("resolveStanding", () => {
  const standing = outcome("2026-01-01T10:00:00.000Z", { status: "rejected", payload_sha256: "a" });

  it("supersedes the version named (or any for *), with the old outcome as the newest history entry", () => {
    for (const marker of [standing.updated_at, "*"]) {
      const action = resolveStanding(outcome("2026-01-01T11:00:00.000Z", { payload_sha256: "a" }), standing, {
        supersede: marker,
      });
      assert.equal(action.action, "supersede");
      if (action.action !== "supersede") return;
      assert.equal(action.item.history?.at(-1)?.status, "rejected");
      assert.equal(action.item.history?.at(-1)?.superseded_at, "2026-01-01T11:00:00.000Z");
      assert.equal(action.item.supersedes?.requested, marker);
    }
  });

  it("refuses another version, and never lets the message that wrote the outcome supersede it", () => {
    const refused = resolveStanding(outcome("2026-01-01T11:00:00.000Z"), standing, {
      supersede: "2026-01-01T09:00:00.000Z",
    });
    assert.equal(refused.action, "duplicate");
    assert.match(refused.action === "duplicate" ? (refused.refused ?? "") : "", /changed since/);
    const redelivery = resolveStanding(
      { ...outcome("2026-01-01T11:00:00.000Z"), source: standing.source },
      standing,
      {
        supersede: "*",
      },
    );
    assert.deepEqual(redelivery, { action: "duplicate" });
  });

  it("refuses to supersede an outcome a person reviewed (fully or partly) unless the marker allows it", () => {
    const fresh = outcome("2026-01-01T11:00:00.000Z", { payload_sha256: "a" });
    const review = {
      by: "alice",
      at: "2026-01-01T10:30:00.000Z",
      previous_status: "fallback" as const,
      previous_updated_at: standing.updated_at,
      answers: { q: "x" },
      previous_answers: { q: { answer: "y", source: "fallback" as const } },
    };
    const full = { ...standing, status: "reviewed", updated_at: review.at, review, reviews: [review] };
    const partial = { ...standing, status: "fallback", updated_at: review.at, review, reviews: [review] };
    for (const reviewed of [full, partial]) {
      for (const marker of [reviewed.updated_at, "*"]) {
        const action = resolveStanding(fresh, reviewed, { supersede: marker });
        assert.equal(action.action, "duplicate");
        assert.match(
          action.action === "duplicate" ? (action.refused ?? "") : "",
          /a person reviewed .*by alice/,
        );
      }
      const allowed = resolveStanding(fresh, reviewed, {
        supersede: supersedeMarkerText(reviewed.updated_at, { replaceReviews: true }),
      });
      assert.equal(allowed.action, "supersede");
      if (allowed.action === "supersede") assert.equal(allowed.item.history?.at(-1)?.reviewed_by, "alice");
    }
    const stale = resolveStanding(fresh, full, {
      supersede: supersedeMarkerText("2026-01-01T09:00:00.000Z", { replaceReviews: true }),
    });
    assert.match(stale.action === "duplicate" ? (stale.refused ?? "") : "", /changed since it was read/);
  });

  it("bounds the history to its newest entries", () => {
    const history = Array.from({ length: OUTCOME_HISTORY_ENTRIES }, (_, i) => ({
      status: "rejected",
      created_at: `t${i}`,
      updated_at: `t${i}`,
      superseded_at: `t${i + 1}`,
    }));
    const action = resolveStanding(
      outcome("2026-01-02T00:00:00.000Z"),
      { ...standing, history },
      { supersede: "*" },
    );
    assert.equal(action.action === "supersede" ? action.item.history?.length : 0, OUTCOME_HISTORY_ENTRIES);
    assert.equal(action.action === "supersede" ? action.item.history?.[0]?.created_at : "", "t1");
  });

  it("calls a different payload a conflict unless it is already recorded; the same payload is a quiet duplicate", () => {
    const other = outcome("2026-01-01T11:00:00.000Z", { payload_sha256: "b" });
    assert.equal(resolveStanding(other, standing, {}).action, "conflict");
    const recorded = { ...standing, conflicts: [{ payload_sha256: "b", at: "x" }] };
    assert.deepEqual(resolveStanding(other, recorded, {}), { action: "duplicate" });
    assert.deepEqual(
      resolveStanding(outcome("2026-01-01T11:00:00.000Z", { payload_sha256: "a" }), standing, {}),
      {
        action: "duplicate",
      },
    );
  });
});
