import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundOutcomeSize, type Outcome, summarizeState } from "../../../functions/outcomes/index.js";
import { outcomesTableDefinition } from "../../../functions/outcomes/outcomesTable.js";

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
    assert.equal(boundOutcomeSize(base), base);
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
