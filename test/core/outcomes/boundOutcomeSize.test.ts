import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  boundOutcomeSize,
  type Outcome,
  REASON_CHARS,
  REASON_PATH_SEGMENT_CHARS,
  REASON_PATH_SEGMENTS,
  STATE_PREVIEW_CHARS,
  summarizeState,
  TABLE_ITEM_GUARD_BYTES,
} from "../../../core/outcomes/index.js";
import { outcomesTableDefinition } from "../../../core/outcomes/outcomesTable.js";

const base: Outcome = {
  policy: "p",
  id: "i",
  policy_status: "p#decided",
  status: "decided",
  rules_fired: [],
  source: { kind: "sqs" },
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("boundOutcomeSize", () => {
  it("keeps a small outcome as it is", () => {
    assert.deepEqual(boundOutcomeSize(base), base);
  });

  it("cuts big distributions to their most probable labels, keeping the answer's", () => {
    const labels = Array.from({ length: 255 }, (_, i) => `label-${"x".repeat(200)}-${i}`);
    const distribution = Object.fromEntries(labels.map((label, i) => [label, (i + 1) / 32640]));
    const answer = labels[3] as string;
    const big: Outcome = {
      ...base,
      answers: {
        q: { answer, probability: 0.001, distribution, threshold: 0, source: "model" },
        r: { answer: labels[0] as string, probability: 0.001, distribution, threshold: 0, source: "model" },
      },
    };

    const bounded = boundOutcomeSize(big, 64 * 1024);

    const kept = bounded.answers?.q;
    assert.equal(kept?.distribution_truncated, true);
    assert.ok(Object.keys(kept?.distribution ?? {}).includes(answer));
    assert.ok(Object.keys(kept?.distribution ?? {}).includes(labels[254] as string));
    assert.ok(Buffer.byteLength(JSON.stringify(bounded)) < 64 * 1024);
  });
});

describe("boundOutcomeSize: the worst cases fit the table", () => {
  const longest = (prefix: string, index: number) => `${prefix}${index}-${"é".repeat(196)}`;

  it("keeps every answer of 64 questions × 255 options of 200-character labels, with the longest reasons and preview", () => {
    // The policy schema's limits: 200-character labels, 255 per choice; 64 questions.
    const labels = Array.from({ length: 255 }, (_, i) => longest("l", i));
    const distribution = Object.fromEntries(labels.map((label, i) => [label, (i + 1) / 32640]));
    const answers = Object.fromEntries(
      Array.from({ length: 64 }, (_, q) => [
        `question_${q}_${"q".repeat(50)}`,
        {
          answer: labels[q] as string,
          probability: 0.001,
          distribution,
          threshold: 0.5,
          source: "rule" as const,
          rule: `rule-${"r".repeat(60)}`,
          model_answer: labels[200] as string,
        },
      ]),
    );
    const worst: Outcome = {
      ...base,
      status: "overridden",
      reason: "r".repeat(50_000),
      answers,
      rules_fired: Array.from({ length: 100 }, (_, i) => ({
        name: `rule-${i}`,
        effect: "set",
        reason: "why ".repeat(5000),
        set: { queue: "x".repeat(10_000) },
      })),
      state_preview: "s".repeat(100_000),
      model: "m".repeat(10_000),
    };

    const bounded = boundOutcomeSize(worst);

    const bytes = Buffer.byteLength(JSON.stringify(bounded));
    assert.ok(bytes <= TABLE_ITEM_GUARD_BYTES, `${bytes} bytes`);
    assert.equal(bounded.status, "overridden", "the decision stands");
    assert.equal(Object.keys(bounded.answers ?? {}).length, 64);
    for (const [qid, answer] of Object.entries(bounded.answers ?? {})) {
      assert.equal(answer.answer, answers[qid]?.answer, "every answer kept");
      assert.equal(answer.distribution_truncated, true);
    }
    assert.equal(Array.from(bounded.reason ?? "").length, REASON_CHARS);
    assert.equal(Array.from(bounded.state_preview ?? "").length, STATE_PREVIEW_CHARS);
    assert.ok(bounded.rules_fired.every((rule) => Array.from(rule.reason ?? "").length <= REASON_CHARS));
  });

  it("cuts a 450 KB fact key in the reason path and the reason by code points, never inside a surrogate pair", () => {
    const key = "😀".repeat(225 * 1024);
    const rejected: Outcome = {
      ...base,
      status: "rejected",
      reason: `facts: ${key}: is not a fact this policy declares`,
      reason_path: ["facts", key, ...Array.from({ length: 100 }, (_, i) => i)],
    };

    const bounded = boundOutcomeSize(rejected);

    assert.ok(Buffer.byteLength(JSON.stringify(bounded)) < 8 * 1024);
    const segment = String(bounded.reason_path?.[1]);
    assert.equal(Array.from(segment).length, REASON_PATH_SEGMENT_CHARS);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    assert.doesNotMatch(segment, loneSurrogate);
    assert.doesNotMatch(bounded.reason ?? "", loneSurrogate);
    assert.equal(bounded.reason_path?.length, REASON_PATH_SEGMENTS);
  });

  it("replaces an outcome that cannot be cut below the guard by a minimal rejected one with its hashes", () => {
    const answers = Object.fromEntries(
      Array.from({ length: 2000 }, (_, q) => [
        `q${q}`,
        { answer: "x".repeat(200), probability: 1, distribution: {}, threshold: 0, source: "model" as const },
      ]),
    );
    const huge: Outcome = {
      ...base,
      answers,
      state_sha256: "a".repeat(64),
      state_bytes: 10,
      policy_sha256: "b".repeat(64),
    };

    const bounded = boundOutcomeSize(huge);

    assert.equal(bounded.status, "rejected");
    assert.equal(bounded.policy_status, "p#rejected");
    assert.match(
      bounded.reason ?? "",
      /the outcome \(decided\) is \d+ bytes even with its distributions cut/,
    );
    assert.deepEqual(
      [bounded.id, bounded.policy, bounded.state_sha256, bounded.policy_sha256, bounded.answers],
      ["i", "p", "a".repeat(64), "b".repeat(64), undefined],
    );
  });
});

describe("summarizeState", () => {
  it("hashes the exact text and keeps a bounded preview", () => {
    const text = `{"a": "${"é".repeat(2000)}"}`;
    const summary = summarizeState(text);
    assert.match(summary.state_sha256, /^[0-9a-f]{64}$/);
    assert.equal(summary.state_bytes, Buffer.byteLength(text));
    assert.equal(Array.from(summary.state_preview).length, 512);
  });
});

describe("outcomesTableDefinition", () => {
  it("keys by policy and id, indexes by policy_status and updated_at, streams both images", () => {
    const table = outcomesTableDefinition("t");
    assert.deepEqual(table.KeySchema, [
      { AttributeName: "policy", KeyType: "HASH" },
      { AttributeName: "id", KeyType: "RANGE" },
    ]);
    assert.equal(table.GlobalSecondaryIndexes?.[0]?.IndexName, "by-status");
    assert.equal(table.StreamSpecification?.StreamViewType, "NEW_AND_OLD_IMAGES");
    assert.equal(table.BillingMode, "PAY_PER_REQUEST");
  });
});
