/**
 * The chaos checker's mutation test: one evidence that passes, and for every invariant a mutation
 * of it that breaks that invariant — the checker must name each one (issue 43's crafted cases
 * among them: an item never sent, a message naming no item, poison rejected for another reason, a
 * dead letter received once, a busy reason logged after "whole batch: ", two items with one key).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { WorkloadItem } from "../../../lab/chaos/buildChaosWorkload.js";
import {
  CHAOS_VIOLATION_COUNTS,
  CHAOS_VIOLATION_KINDS,
  type ChaosEvidence,
  type ChaosViolation,
  checkChaosInvariant,
} from "../../../lab/chaos/checkChaosInvariant.js";
import type { DeadLetter } from "../../../lab/chaos/readChaosEvidence.js";
import { chaosRunOk } from "../../../lab/chaos/runChaos.js";

type Row = Record<string, unknown>;
type Kind = ChaosViolation["kind"];

function row(policy: string, id: string, status: string, messageId: string, extra: Row = {}): Row {
  return { policy, id, status, source: { kind: "sqs", message_id: messageId }, rules_fired: [], ...extra };
}

/**
 * Five items: a valid one, a valid one sent twice (once per lane), invalid JSON, an oversized
 * state, and a valid item dead-lettered in its lane after maxReceiveCount receives with a reason.
 */
function passing(): ChaosEvidence & { items: WorkloadItem[]; rows: Row[]; deadLetters: DeadLetter[] } {
  return {
    items: [
      { kind: "valid", origin: "unique", key: { policy: "ticket-routing", id: "a" }, stateSha256: "s-a" },
      { kind: "valid", origin: "duplicated", key: { policy: "ticket-routing", id: "b" }, stateSha256: "s-b" },
      { kind: "poison", origin: "invalid-json" },
      { kind: "poison", origin: "oversized-state", key: { policy: "ticket-routing", id: "o" } },
      { kind: "valid", origin: "unique", key: { policy: "ticket-routing", id: "e" }, stateSha256: "s-e" },
    ],
    sent: [
      { messageId: "m1", item: 0, lane: "interactive" },
      { messageId: "m2", item: 1, lane: "bulk" },
      { messageId: "m3", item: 1, lane: "interactive" },
      { messageId: "m4", item: 2, lane: "interactive" },
      { messageId: "m5", item: 3, lane: "bulk" },
      { messageId: "m6", item: 4, lane: "bulk" },
    ],
    rows: [
      row("ticket-routing", "a", "decided", "m1", { state_sha256: "s-a" }),
      row("ticket-routing", "b", "fallback", "m3", { state_sha256: "s-b" }),
      row("_unparsed", "m4", "rejected", "m4", {
        reason: "the message body is not valid JSON: Unexpected end",
      }),
      row("ticket-routing", "o", "rejected", "m5", {
        reason: "the state is 400000 bytes, over the 30000 bytes that fit in a prompt of 8192 tokens",
      }),
    ],
    deadLetters: [{ messageId: "m6", body: "{}", receiveCount: 5, lane: "bulk" }],
    failureReasons: new Map([["m6", "ModelError (model status 500): the model failed"]]),
    queueRemaining: { interactive: 0, bulk: 0 },
    maxReceiveCount: 5,
  };
}

/** For every invariant, mutations of the passing evidence that break it. */
const MUTATIONS: { kind: Kind; case: string; mutate: (e: ReturnType<typeof passing>) => void }[] = [
  { kind: "lost", case: "an outcome removed", mutate: (e) => e.rows.splice(0, 1) },
  {
    kind: "not-drained",
    case: "an outcome removed while the queue holds a message",
    mutate: (e) => {
      e.rows.splice(0, 1);
      e.queueRemaining = { interactive: 1, bulk: 0 };
    },
  },
  { kind: "duplicate", case: "a second outcome for one item", mutate: (e) => e.rows.push({ ...e.rows[0] }) },
  {
    kind: "conflicting",
    case: "an outcome for another state",
    mutate: (e) => Object.assign(e.rows[0] as Row, { state_sha256: "s-other" }),
  },
  {
    kind: "unexpected",
    case: "an outcome nobody sent",
    mutate: (e) => e.rows.push(row("ticket-routing", "zz", "decided", "m-nobody")),
  },
  {
    kind: "poison-not-rejected",
    case: "poison decided",
    mutate: (e) => Object.assign(e.rows[3] as Row, { status: "decided", reason: undefined }),
  },
  {
    kind: "poison-not-rejected",
    case: "oversized-state poison rejected for an unrelated reason",
    mutate: (e) => Object.assign(e.rows[3] as Row, { reason: "EndpointError: the endpoint answered 500" }),
  },
  {
    kind: "dead-lettered-without-reason",
    case: "a dead letter with no failure reason",
    mutate: (e) => {
      e.failureReasons = new Map();
    },
  },
  {
    kind: "dead-lettered-busy",
    case: "a busy dead letter logged as part of a whole batch's failure",
    mutate: (e) => {
      e.failureReasons = new Map([["m6", "whole batch: DeadlineExceededError: no time left for a call"]]);
    },
  },
  {
    kind: "dead-lettered-busy",
    case: "a dead letter whose reason is the endpoint at capacity",
    mutate: (e) => {
      e.failureReasons = new Map([["m6", "ModelError (model status 503): busy"]]);
    },
  },
  {
    kind: "dead-lettered-in-other-lane",
    case: "a dead letter in the other lane's DLQ",
    mutate: (e) => Object.assign(e.deadLetters[0] as DeadLetter, { lane: "interactive" }),
  },
  {
    kind: "dead-lettered-early",
    case: "a valid item dead-lettered with receiveCount 1",
    mutate: (e) => Object.assign(e.deadLetters[0] as DeadLetter, { receiveCount: 1 }),
  },
  {
    kind: "unknown-dead-letter",
    case: "a DLQ message the run never sent",
    mutate: (e) => e.deadLetters.push({ messageId: "m-stranger", body: "{}", receiveCount: 5, lane: "bulk" }),
  },
  {
    kind: "not-sent",
    case: "an item with no sent message and no outcome",
    mutate: (e) =>
      e.items.push({
        kind: "valid",
        origin: "unique",
        key: { policy: "ticket-routing", id: "never" },
        stateSha256: "s",
      }),
  },
  {
    kind: "unknown-item",
    case: "a lost message naming a missing item",
    mutate: (e) => {
      e.sent = [...e.sent, { messageId: "m9", item: 42, lane: "interactive" }];
    },
  },
  {
    kind: "ambiguous-key",
    case: "two items with one key",
    mutate: (e) => {
      e.items.push({
        kind: "valid",
        origin: "unique",
        key: { policy: "ticket-routing", id: "a" },
        stateSha256: "s-x",
      });
      e.sent = [...e.sent, { messageId: "m9", item: 5, lane: "interactive" }];
    },
  },
  // Each invariant by every path that can break it, beyond the first case above.
  {
    kind: "lost",
    case: "an item sent in both lanes with neither outcome nor DLQ message",
    mutate: (e) => e.rows.splice(1, 1),
  },
  {
    kind: "not-drained",
    case: "a bulk item without outcome while the bulk queue holds a message",
    mutate: (e) => {
      e.deadLetters.splice(0, 1);
      e.queueRemaining = { interactive: 0, bulk: 1 };
    },
  },
  {
    kind: "duplicate",
    case: "an outcome under another key written for an item's own message",
    mutate: (e) => e.rows.push(row("ticket-routing", "a-again", "decided", "m1", { state_sha256: "s-a" })),
  },
  {
    kind: "conflicting",
    case: "an outcome written from another item's message",
    mutate: (e) => Object.assign(e.rows[0] as Row, { source: { kind: "sqs", message_id: "m2" } }),
  },
  {
    kind: "conflicting",
    case: "a valid item rejected by no rule",
    mutate: (e) => Object.assign(e.rows[0] as Row, { status: "rejected", reason: "the endpoint failed" }),
  },
  {
    kind: "unexpected",
    case: "an outcome written for a message that names a missing item",
    mutate: (e) => {
      e.sent = [...e.sent, { messageId: "m9", item: 42, lane: "interactive" }];
      e.rows.push(row("ticket-routing", "zz", "decided", "m9"));
    },
  },
  {
    kind: "poison-not-rejected",
    case: "poison dead-lettered instead of rejected",
    mutate: (e) => {
      e.rows.splice(3, 1);
      e.deadLetters.push({ messageId: "m5", body: "{}", receiveCount: 5, lane: "bulk" });
      e.failureReasons = new Map([...e.failureReasons, ["m5", "ModelError (model status 500): failed"]]);
    },
  },
  {
    kind: "poison-not-rejected",
    case: "invalid-JSON poison rejected for an unrelated reason",
    mutate: (e) => Object.assign(e.rows[2] as Row, { reason: "unknown policy: ticket-routing" }),
  },
  {
    kind: "dead-lettered-without-reason",
    case: "a dead letter whose logged reason is empty",
    mutate: (e) => {
      e.failureReasons = new Map([["m6", ""]]);
    },
  },
  {
    kind: "dead-lettered-busy",
    case: "a dead letter given up after retries at the endpoint's 429",
    mutate: (e) => {
      e.failureReasons = new Map([
        ["m6", "RetriesExhaustedError: 4 attempts: ModelError (model status 429): too many requests"],
      ]);
    },
  },
  {
    kind: "dead-lettered-in-other-lane",
    case: "a dead letter of a one-lane run's message found in the bulk DLQ",
    mutate: (e) => {
      e.rows.splice(0, 1);
      e.deadLetters.push({ messageId: "m1", body: "{}", receiveCount: 5, lane: "bulk" });
      e.failureReasons = new Map([...e.failureReasons, ["m1", "ModelError (model status 500): failed"]]);
    },
  },
];

describe("the chaos checker against mutated evidence", () => {
  it("passes the evidence every mutation starts from", () => {
    const check = checkChaosInvariant(passing());
    assert.equal(check.ok, true, JSON.stringify(check.violations));
    assert.deepEqual(
      [check.counts.decided, check.counts.poisonRejected, check.counts.deadLettered],
      [2, 2, 1],
    );
  });

  it("has all the counts that violations move at 0 on the passing evidence", () => {
    const { counts } = checkChaosInvariant(passing());
    for (const [kind, field] of Object.entries(CHAOS_VIOLATION_COUNTS)) {
      assert.equal(counts[field], 0, `${kind} counts in ${field}`);
    }
  });

  it("has a mutation for every invariant", () => {
    assert.deepEqual([...new Set(MUTATIONS.map((m) => m.kind))].sort(), [...CHAOS_VIOLATION_KINDS].sort());
  });

  for (const mutation of MUTATIONS) {
    it(`fails ${mutation.kind}: ${mutation.case}`, () => {
      const evidence = passing();
      mutation.mutate(evidence);
      const check = checkChaosInvariant(evidence);
      assert.equal(check.ok, false);
      assert.ok(
        check.violations.some((violation) => violation.kind === mutation.kind),
        `expected ${mutation.kind}, got ${JSON.stringify(check.violations)}`,
      );
      const field = CHAOS_VIOLATION_COUNTS[mutation.kind];
      assert.ok(
        check.counts[field] > 0,
        `${mutation.kind} must move counts.${field}: ${check.counts[field]}`,
      );
      for (const violation of check.violations) assert.doesNotMatch(violation.detail, /\bundefined\b/);
    });
  }

  it("names both items that share a key, not only the one left without an outcome", () => {
    const evidence = passing();
    MUTATIONS.find((m) => m.kind === "ambiguous-key")?.mutate(evidence);
    const violation = checkChaosInvariant(evidence).violations.find((v) => v.kind === "ambiguous-key");
    assert.match(
      String(violation?.detail),
      /items 0 \(unique\) and 5 \(unique\) share the key ticket-routing\/a/,
    );
  });

  it("fails a run whose queue refused a send, everything else passing", () => {
    const run = { check: { ok: true }, drained: true, faultsFired: 3, faultsPlanned: 3 };
    assert.equal(chaosRunOk({ ...run, sendFailures: 0 }), true);
    assert.equal(chaosRunOk({ ...run, sendFailures: 1 }), false);
  });
});
