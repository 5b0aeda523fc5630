/** The demo's summary: counts per policy and status, answers with probabilities, review and rejects. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Outcome } from "../../../core/outcomes/index.js";
import { formatDemoSummary } from "../../../local/demo/formatDemoSummary.js";

function outcome(fields: Partial<Outcome> & Pick<Outcome, "policy" | "id" | "status">): Outcome {
  return {
    policy_status: `${fields.policy}#${fields.status}`,
    rules_fired: [],
    source: { kind: "sqs" },
    created_at: "2026-12-01T00:00:00Z",
    updated_at: "2026-12-01T00:00:00Z",
    ...fields,
  };
}

const answer = (
  value: string | boolean,
  probability: number,
  source: "model" | "rule" | "fallback" = "model",
) => ({
  answer: value,
  probability,
  distribution: {},
  threshold: 0.5,
  source,
});

describe("formatDemoSummary", () => {
  const outcomes = [
    outcome({
      policy: "ticket-routing",
      id: "T-2",
      status: "decided",
      answers: { queue: answer("billing", 0.91), human: answer(false, 0.8) },
    }),
    outcome({
      policy: "ticket-routing",
      id: "T-1",
      status: "fallback",
      reason: "queue: probability 0.3 below threshold 0.55",
      answers: { queue: answer("triage", 0.3, "fallback"), human: answer(true, 0.6) },
    }),
    outcome({
      policy: "ticket-routing",
      id: "T-3",
      status: "overridden",
      answers: { queue: answer("legal", 0.2, "rule"), human: answer(true, 0.9) },
      rules_fired: [{ name: "legal_hold_to_legal", effect: "set" }],
    }),
    outcome({
      policy: "_unparsed",
      id: "m-1",
      status: "rejected",
      reason: "the message body is not valid JSON",
    }),
  ];
  const text = formatDemoSummary(outcomes, {
    sent: 5,
    deadLetters: [{ messageId: "m-9", preview: '{"id": "x"}', receiveCount: "6" }],
    elapsedMs: 1234,
    model: "generated tiny-qwen3",
  });

  it("heads with the totals and counts each policy's outcomes by status", () => {
    assert.match(text, /^Summary: 5 items sent, 4 outcomes, 1 dead-lettered, 1\.2 s$/m);
    assert.match(text, /^ticket-routing — 3 items: 1 decided, 1 overridden, 1 fallback$/m);
    assert.match(text, /^_unparsed — 1 item: 1 rejected$/m);
  });

  it("shows each answer with its probability, marking fallback and rule answers, and the rules fired", () => {
    const rows = text.split("\n").filter((line) => /^ {2}T-\d/.test(line));
    assert.deepEqual(
      rows.map((row) => row.trim().split(/\s+/)[0]),
      ["T-1", "T-2", "T-3"],
    );
    assert.match(rows[0] ?? "", /triage\* 0\.30\s+yes 0\.60/);
    assert.match(rows[1] ?? "", /billing 0\.91\s+no 0\.80/);
    assert.match(rows[2] ?? "", /legal! 0\.20\s+yes 0\.90\s+legal_hold_to_legal$/);
  });

  it("lists the items sent to human review, the rejected ones and the dead letters with their reasons", () => {
    assert.match(
      text,
      /^Sent to human review \(status fallback\): 1\n {2}ticket-routing\/T-1\s+queue: probability 0\.3 below/m,
    );
    assert.match(text, /^Rejected: 1\n {2}_unparsed\/m-1\s+the message body is not valid JSON$/m);
    assert.match(text, /^Dead-lettered: 1\n {2}m-9 \(received 6 times\): \{"id": "x"\}$/m);
  });
});
