/**
 * An outcome's history in words (`contract/outcome/reviewHistory.ts`), which the review console's
 * item page shows: "amended by carol: queue=sales (was billing) → reviewed", word for word the lines
 * `decisions outcomes show` prints (`formatReviewHistory`), for decisions, partial reviews,
 * amendments, replaced answers, audit items and a history an earlier version cut.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeReview } from "../../../contract/outcome/describeReview.js";
import type { OutcomeReview, StoredOutcome } from "../../../contract/outcome/OutcomeSchema.js";
import { reviewHistoryEntries } from "../../../contract/outcome/reviewHistory.js";
import { reviewsOf } from "../../../core/outcomes/index.js";
import { formatReviewHistory } from "../../../operations/outcomes/index.js";

const answer = (value: string, source: "model" | "fallback" | "human") => ({
  answer: value,
  probability: 0.4,
  distribution: { [value]: 0.4, billing: 0.6 },
  threshold: 0.55,
  source,
});

function review(fields: Partial<OutcomeReview> & Pick<OutcomeReview, "at" | "answers">): OutcomeReview {
  return {
    previous_status: "fallback",
    previous_updated_at: "2026-12-01T10:00:00.000Z",
    previous_answers: Object.fromEntries(
      Object.keys(fields.answers).map((qid) => [qid, { answer: "triage", source: "fallback" as const }]),
    ),
    ...fields,
  };
}

const base: StoredOutcome = {
  policy: "ticket-routing",
  id: "t-1",
  policy_status: "ticket-routing#reviewed",
  status: "reviewed",
  answers: { queue: answer("sales", "human"), priority: answer("P2", "human") },
  rules_fired: [],
  source: { kind: "sqs" },
  model: "demo-model",
  created_at: "2026-12-01T10:00:00.000Z",
  updated_at: "2026-12-01T12:00:00.000Z",
};

const cases: Record<string, StoredOutcome> = {
  "a partial review, then the rest, then an amendment": {
    ...base,
    reviews: [
      review({
        at: "2026-12-01T10:10:00.000Z",
        by: "ana",
        answers: { queue: "billing" },
        remaining: ["priority"],
      }),
      review({ at: "2026-12-01T10:20:00.000Z", by: "bob", answers: { priority: "P2" } }),
      review({
        at: "2026-12-01T12:00:00.000Z",
        by: "carol",
        answers: { queue: "sales" },
        previous_status: "reviewed",
        previous_answers: { queue: { answer: "billing", source: "human" } },
        amendment: true,
      }),
    ],
  },
  "a review that replaced the reviewer's own, without a name on the first": {
    ...base,
    reviews: [
      review({ at: "2026-12-01T10:10:00.000Z", answers: { queue: "billing", priority: "P3" } }),
      review({
        at: "2026-12-01T10:30:00.000Z",
        by: "ana",
        answers: { priority: "P2" },
        previous_status: "reviewed",
        amendment: true,
        replaces_own: ["2026-12-01T10:05:00.000Z"],
      }),
    ],
    reviews_dropped: 2,
  },
  "an audit item, reviewed once (the review kept alone, before reviews was)": {
    ...base,
    audit: { rate: 0.1, draw: 0.0412345 },
    review: review({
      at: "2026-12-01T11:00:00.000Z",
      by: "erin",
      answers: { queue: "sales" },
      previous_status: "decided",
    }),
  },
  "a decision no one reviewed": { ...base, status: "fallback", policy_status: "ticket-routing#fallback" },
};

describe("an outcome's history in words", () => {
  for (const [name, outcome] of Object.entries(cases)) {
    it(`words ${name} as outcomes show prints it`, () => {
      const entries = reviewHistoryEntries(outcome, reviewsOf(outcome));
      assert.deepEqual(
        entries.map((entry) => (entry.at === undefined ? `  ${entry.text}` : `${entry.at}  ${entry.text}`)),
        formatReviewHistory(outcome),
      );
    });
  }

  it('says "amended by carol (was …)" for an amendment and "reviewed by" otherwise', () => {
    const outcome = cases["a partial review, then the rest, then an amendment"] as StoredOutcome;
    const texts = reviewHistoryEntries(outcome, reviewsOf(outcome)).map((entry) => entry.text);
    assert.deepEqual(texts, [
      "fallback by demo-model",
      "reviewed by ana: queue=billing (was triage) → partial, still open: priority",
      "reviewed by bob: priority=P2 (was triage) → reviewed",
      "amended by carol: queue=sales (was billing) → reviewed",
    ]);
    assert.equal(
      describeReview(review({ at: "x", answers: { queue: "legal" } }), "reviewed"),
      "reviewed by (no name): queue=legal (was triage) → reviewed",
    );
  });
});
