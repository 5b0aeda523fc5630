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
    maxRowsPerPolicy: 3,
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
      /^Sent to human review \(status fallback\): 1, by reason\n {5}1× ticket-routing\/T-1: queue: probability 0\.3 below threshold 0\.55$/m,
    );
    assert.match(
      text,
      /^Rejected: 1, by reason\n {5}1× _unparsed\/m-1: the message body is not valid JSON$/m,
    );
    assert.match(text, /^Dead-lettered: 1\n {2}m-9 \(received 6 times\): \{"id": "x"\}$/m);
  });

  /**
   * A run like `npm start`'s on the generated model: the sample batch repeated to 300 lines (each
   * document and each bad line a dozen times, under ids of their own), the tickets and incidents
   * alone and timed twice more, the malformed events.
   */
  function sampleRun(): Outcome[] {
    const items: Outcome[] = [];
    const repeats = ["", ...Array.from({ length: 12 }, (_, index) => `-r${index + 2}`)];
    for (let document = 900; document < 915; document += 1)
      for (const suffix of repeats)
        items.push(
          outcome({
            policy: "batch-classification",
            id: `DOC-${document}${suffix}`,
            status: "fallback",
            reason: `document_type: probability 0.${100 + document - 900} below threshold 0.6`,
            answers: { document_type: answer("other", 0.15, "fallback") },
          }),
        );
    const long =
      'invalid work item: state: Too small: expected string to have >=1 characters; facts: source_system: Invalid option: expected one of "scanner"|"email"|"upload"';
    for (const suffix of repeats) {
      items.push(
        outcome({
          policy: "batch-classification",
          id: `DOC-950${suffix}`,
          status: "rejected",
          reason:
            "duplicate_rejected: Duplicate of an earlier row (facts.duplicate_of); the original row carries the decision.",
        }),
        outcome({
          policy: "batch-classification",
          id: `DOC-bad-1${suffix}`,
          status: "rejected",
          reason: `s3://ingest/incoming/documents.jsonl line ${23 + 24 * repeats.indexOf(suffix)}: ${long}`,
        }),
      );
    }
    for (let ticket = 0; ticket < 29; ticket += 1)
      items.push(
        outcome({
          policy: "ticket-routing",
          id: `TCK-${10400 + ticket}`,
          status: "fallback",
          reason: `queue: probability 0.1${ticket % 10} below threshold 0.55`,
          answers: { queue: answer("triage", 0.15, "fallback"), needs_human: answer(true, 0.6) },
        }),
      );
    for (const [index, reason] of [
      'no policy maps EventBridge events with source "acme.billing" and detail-type "Invoice Overdue"',
      'the message body is not valid JSON: unexpected character "n" at line 1, column 1',
      'facts: customer_tier: Invalid option: expected one of "free"|"pro"|"business"|"enterprise"',
      "invalid work item: state: must be a non-empty string, an array or an object",
      'unknown policy "no-such-policy" (loaded: batch-classification, incident-priority, ticket-routing)',
      "facts: service: is required",
    ].entries())
      items.push(
        outcome({
          policy: index < 2 ? "_unparsed" : "ticket-routing",
          id: `bad-${index}`,
          status: "rejected",
          reason,
        }),
      );
    return items;
  }

  it("stays short on a run of hundreds of items: repeats counted by reason, each reason whole, every cut list counted", () => {
    const items = sampleRun();
    const summary = formatDemoSummary(items, {
      sent: items.length,
      deadLetters: [],
      elapsedMs: 1000,
      model: "m",
    });
    const lines = summary.trimEnd().split("\n");

    assert.ok(lines.length <= 40, `${lines.length} lines:\n${summary}`);
    assert.match(
      summary,
      /^ {4}13× batch-classification\/DOC-950 and 12 like it: duplicate_rejected: Duplicate of an earlier row \(facts\.duplicate_of\); the original row carries the decision\.$/m,
    );
    assert.ok(
      summary.includes(
        `13× batch-classification/DOC-bad-1 and 12 like it: s3://ingest/incoming/documents.jsonl line 23: invalid work item: state: Too small: expected string to have >=1 characters; facts: source_system: Invalid option: expected one of "scanner"|"email"|"upload"\n`,
      ),
      "a long reason in full",
    );
    assert.doesNotMatch(summary, /…(?! and \d+ more)/, "nothing cut mid-phrase");
    assert.match(summary, /^ {2}… and 193 more answered$/m);
    assert.match(summary, /^ {2}… and \d+ more item\(s\) for \d+ other reason\(s\)$/m);
    const counted = [...summary.matchAll(/^ +(\d+)× /gm)].map((match) => Number(match[1]));
    const rest = [...summary.matchAll(/… and (\d+) more item\(s\)/g)].map((match) => Number(match[1]));
    const waiting = items.filter((item) => item.status === "fallback" || item.status === "rejected").length;
    assert.equal(
      [...counted, ...rest].reduce((sum, count) => sum + count, 0),
      waiting,
      "every item counted once",
    );
  });
});
