/**
 * The review queue's worth orders: margin and entropy of an outcome's answers, the total order
 * (worth, newest, policy, id) that never ties, `outcomes list`'s ordering by it, and the worth
 * cursor's round trip and refusals.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  compareReviewOrderKeys,
  normalisedEntropy,
  type ReviewOrderKey,
  reviewWorth,
} from "../../../contract/outcome/reviewOrder.js";
import type { StoredOutcome } from "../../../core/outcomes/index.js";
import { readWorthCursor, writeWorthCursor } from "../../../core/review/reviewQueueCursor.js";
import { ReviewRequestError } from "../../../functions/reviewConsole/index.js";
import { orderOutcomes } from "../../../operations/outcomes/index.js";

type Answers = NonNullable<StoredOutcome["answers"]>;

function answer(
  probability: number,
  threshold: number,
  source: "model" | "fallback" | "rule" | "human",
  distribution?: Record<string, number>,
): Answers[string] {
  return {
    answer: "a",
    probability,
    threshold,
    source,
    distribution: distribution ?? { a: probability, b: 1 - probability },
  };
}

function outcome(id: string, at: string, answers: Answers): StoredOutcome {
  return {
    policy: "p",
    id,
    policy_status: "p#fallback",
    status: "fallback",
    answers,
    rules_fired: [],
    source: { kind: "file", line: 1 },
    created_at: at,
    updated_at: at,
  };
}

describe("reviewWorth", () => {
  it("margin: the smallest |probability − threshold| over the model's answers, ignoring rules and people", () => {
    const worth = reviewWorth(
      {
        answers: {
          q1: answer(0.5, 0.7, "fallback"),
          q2: answer(0.72, 0.7, "model"),
          q3: answer(0.7, 0.7, "rule"),
          q4: answer(0.7, 0.7, "human"),
        },
      },
      "margin",
    );
    assert.ok(Math.abs(worth - 0.02) < 1e-12);
    assert.equal(reviewWorth({ answers: {} }, "margin"), 1, "nothing to ask: worth least");
    assert.equal(
      reviewWorth({ answers: { q1: answer(0.5, 0.7, "fallback") } }, "margin", { questions: [] }),
      1,
    );
  });

  it("entropy: minus the largest normalised entropy; uniform is −1, certain is 0", () => {
    const uniform = { a: 0.25, b: 0.25, c: 0.25, d: 0.25 };
    assert.equal(normalisedEntropy(uniform), 1);
    assert.equal(normalisedEntropy({ a: 1, b: 0 }), 0);
    assert.ok(
      Math.abs(reviewWorth({ answers: { q: answer(0.25, 0.5, "fallback", uniform) } }, "entropy") + 1) <
        1e-12,
    );
    // Cut to two labels of four: the missing mass counts, and the label count normalises.
    const cut = normalisedEntropy({ a: 0.4, b: 0.3 }, 4);
    assert.ok(cut > 0 && cut < 1);
    assert.equal(reviewWorth({ answers: {} }, "entropy"), 0);
  });

  it("entropy orders the more spread distribution first, across label counts", () => {
    const two = outcome("two", "2026-12-01T00:00:00.000Z", {
      q: answer(0.9, 0.5, "model", { a: 0.9, b: 0.1 }),
    });
    const three = outcome("three", "2026-12-01T00:00:00.000Z", {
      q: answer(0.4, 0.5, "fallback", { a: 0.4, b: 0.3, c: 0.3 }),
    });
    assert.deepEqual(
      orderOutcomes([two, three], "entropy").map((entry) => entry.outcome.id),
      ["three", "two"],
    );
  });
});

describe("the worth order's total order", () => {
  const key = fc.record({
    tier: fc.constantFrom(0 as const, 1 as const),
    worth: fc.constantFrom(0, 0.1, 0.5),
    updatedAt: fc.constantFrom("2026-12-01T00:00:00.000Z", "2026-12-01T00:00:01.000Z"),
    policy: fc.constantFrom("a", "b"),
    id: fc.constantFrom("1", "2", "3"),
  });

  it("is antisymmetric, transitive and zero only for the same key (property)", () => {
    fc.assert(
      fc.property(key, key, key, (a, b, c) => {
        const same =
          a.tier === b.tier &&
          a.worth === b.worth &&
          a.updatedAt === b.updatedAt &&
          a.policy === b.policy &&
          a.id === b.id;
        assert.equal(compareReviewOrderKeys(a, b) === 0, same);
        assert.ok(Math.sign(compareReviewOrderKeys(a, b)) === -Math.sign(compareReviewOrderKeys(b, a)));
        if (compareReviewOrderKeys(a, b) < 0 && compareReviewOrderKeys(b, c) < 0)
          assert.ok(compareReviewOrderKeys(a, c) < 0);
      }),
    );
  });

  it("puts audit items first under a worth order, whatever their worth", () => {
    const sure = {
      ...outcome("audit-sure", "2026-12-01T00:00:00.000Z", { q: answer(0.99, 0.7, "model") }),
      audit: { rate: 0.1, draw: 0.05 },
    };
    const near = outcome("near", "2026-12-01T00:00:00.000Z", { q: answer(0.69, 0.7, "fallback") });
    assert.deepEqual(
      orderOutcomes([near, sure], "margin").map((entry) => entry.outcome.id),
      ["audit-sure", "near"],
    );
  });

  it("breaks equal worth by newest, then id; outcomes list follows it", () => {
    const outcomes = [
      outcome("x-2", "2026-12-01T00:00:00.000Z", { q: answer(0.6, 0.7, "fallback") }),
      outcome("x-1", "2026-12-01T00:00:00.000Z", { q: answer(0.6, 0.7, "fallback") }),
      outcome("x-3", "2026-12-01T00:00:05.000Z", { q: answer(0.6, 0.7, "fallback") }),
      outcome("x-0", "2026-12-01T00:00:09.000Z", { q: answer(0.2, 0.7, "fallback") }),
      outcome("x-4", "2026-12-01T00:00:00.000Z", { q: answer(0.69, 0.7, "fallback") }),
    ];
    assert.deepEqual(
      orderOutcomes(outcomes, "margin").map((entry) => entry.outcome.id),
      ["x-4", "x-3", "x-1", "x-2", "x-0"],
    );
    assert.deepEqual(
      orderOutcomes(outcomes, "newest").map((entry) => entry.outcome.id),
      outcomes.map((entry) => entry.id),
      "newest keeps the order read",
    );
  });
});

describe("the worth cursor", () => {
  const after: ReviewOrderKey = {
    tier: 1,
    worth: 0.1 + 0.2,
    updatedAt: "2026-12-01T00:00:00.000Z",
    policy: "p",
    id: "ü/..?",
  };

  it("reads back what it wrote, the worth to the last bit", () => {
    const cursor = {
      order: "margin" as const,
      listing: "L",
      asOf: "2026-12-02T00:00:00.000Z",
      below: "2026-12-01T12:00:00.000Z",
      lo: null,
      after,
    };
    assert.deepEqual(readWorthCursor(writeWorthCursor(cursor), "margin", "L"), cursor);
  });

  it("refuses another order's or listing's cursor, and text that is not a cursor", () => {
    const text = writeWorthCursor({ order: "margin", listing: "L", asOf: "2026-12-02T00:00:00.000Z", after });
    for (const [given, order, listing] of [
      [text, "entropy", "L"],
      [text, "margin", "M"],
      ["not-a-cursor", "margin", "L"],
      [
        Buffer.from(JSON.stringify({ v: 3, o: "margin", f: "L", a: "t", k: [1, 0.5, "t", "p"] })).toString(
          "base64url",
        ),
        "margin",
        "L",
      ],
    ] as const)
      assert.throws(() => readWorthCursor(given, order, listing), ReviewRequestError);
  });
});
