/** The chaos checker: it passes a clean run and names each way an item can fail to end exactly once. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { WorkloadItem } from "../../../lab/chaos/buildChaosWorkload.js";
import {
  type ChaosEvidence,
  checkChaosInvariant,
  isBusyReason,
  type SentMessage,
} from "../../../lab/chaos/checkChaosInvariant.js";

const items: WorkloadItem[] = [
  { kind: "valid", origin: "duplicated", key: { policy: "ticket-routing", id: "a" }, stateSha256: "s-a" },
  { kind: "valid", origin: "dual", key: { policy: "ticket-routing", id: "d" }, stateSha256: "s-d1" },
  { kind: "valid", origin: "dual", key: { policy: "batch-classification", id: "d" }, stateSha256: "s-d2" },
  { kind: "poison", origin: "invalid-json" },
  { kind: "poison", origin: "unknown-policy", key: { policy: "no-such-policy", id: "p" } },
];
const sent = [
  { messageId: "m1", item: 0 },
  { messageId: "m2", item: 0 },
  { messageId: "m3", item: 1 },
  { messageId: "m4", item: 2 },
  { messageId: "m5", item: 3 },
  { messageId: "m6", item: 4 },
];

function row(
  policy: string,
  id: string,
  status: string,
  messageId: string,
  extra: Record<string, unknown> = {},
) {
  return { policy, id, status, source: { kind: "sqs", message_id: messageId }, rules_fired: [], ...extra };
}

function cleanRows(): Record<string, unknown>[] {
  return [
    row("ticket-routing", "a", "decided", "m2", { state_sha256: "s-a" }),
    row("ticket-routing", "d", "fallback", "m3", { state_sha256: "s-d1" }),
    row("batch-classification", "d", "decided", "m4", { state_sha256: "s-d2" }),
    row("_unparsed", "m5", "rejected", "m5", { reason: "the message body is not valid JSON" }),
    row("no-such-policy", "p", "rejected", "m6", { reason: 'unknown policy "no-such-policy"' }),
  ];
}

function evidence(overrides: Partial<ChaosEvidence> = {}): ChaosEvidence {
  return {
    items,
    sent,
    rows: cleanRows(),
    deadLetters: [],
    failureReasons: new Map(),
    queueRemaining: 0,
    ...overrides,
  };
}

describe("checkChaosInvariant", () => {
  it("passes when every item has one fitting outcome, a duplicate send and two policies for one id included", () => {
    const check = checkChaosInvariant(evidence());

    assert.equal(check.ok, true, JSON.stringify(check.violations));
    assert.equal(check.counts.items, 5);
    assert.equal(check.counts.decided, 3);
    assert.equal(check.counts.poisonRejected, 2);
    assert.equal(check.counts.lost, 0);
  });

  it("counts an item with no outcome and no DLQ message as lost", () => {
    const check = checkChaosInvariant(evidence({ rows: cleanRows().slice(1) }));

    assert.equal(check.ok, false);
    assert.equal(check.counts.lost, 1);
    assert.equal(check.violations[0]?.kind, "lost");
  });

  it("counts an item with no outcome as not drained, not lost, while the work queue still holds messages", () => {
    const check = checkChaosInvariant(evidence({ rows: cleanRows().slice(2), queueRemaining: 3 }));

    assert.equal(check.ok, false);
    assert.equal(check.counts.lost, 0);
    assert.equal(check.counts.notDrained, 2);
    assert.equal(check.counts.queueRemaining, 3);
    assert.deepEqual(
      check.violations.map((violation) => violation.kind),
      ["not-drained", "not-drained"],
    );
  });

  it("counts as lost the items beyond what the work queue still holds", () => {
    const check = checkChaosInvariant(evidence({ rows: cleanRows().slice(3), queueRemaining: 1 }));

    assert.equal(check.ok, false);
    assert.equal(check.counts.notDrained, 1);
    assert.equal(check.counts.lost, 2);
    assert.ok(check.violations.some((violation) => violation.kind === "lost"));
  });

  it("passes with a non-empty queue when every item has ended (the rest are redundant copies)", () => {
    const check = checkChaosInvariant(evidence({ queueRemaining: 2 }));

    assert.equal(check.ok, true, JSON.stringify(check.violations));
    assert.equal(check.counts.notDrained, 0);
  });

  it("refuses a queue depth that is not a count", () => {
    assert.throws(() => checkChaosInvariant(evidence({ queueRemaining: -1 })), RangeError);
  });

  it("accepts a dead-lettered item with a reason and refuses one without", () => {
    const deadLetters = [{ messageId: "m3", body: "{}", receiveCount: 5 }];
    const rows = cleanRows().filter((r) => !(r.id === "d" && r.policy === "ticket-routing"));

    const withReason = checkChaosInvariant(
      evidence({ rows, deadLetters, failureReasons: new Map([["m3", "RetriesExhaustedError: …"]]) }),
    );
    const withoutReason = checkChaosInvariant(evidence({ rows, deadLetters }));

    assert.equal(withReason.ok, true);
    assert.equal(withReason.counts.deadLettered, 1);
    assert.equal(withoutReason.ok, false);
    assert.equal(withoutReason.violations[0]?.kind, "dead-lettered-without-reason");
  });

  it("gives a DLQ copy re-queued for capacity to the item of the message it descends from", () => {
    const rows = cleanRows().filter((r) => !(r.id === "d" && r.policy === "ticket-routing"));
    const deadLetters = [{ messageId: "copy-1", firstMessageId: "m3", body: "{}", receiveCount: 5 }];

    const check = checkChaosInvariant(
      evidence({ rows, deadLetters, failureReasons: new Map([["copy-1", "RetriesExhaustedError: …"]]) }),
    );

    assert.equal(check.ok, true, JSON.stringify(check.violations));
    assert.equal(check.counts.deadLettered, 1);
  });

  it("counts a DLQ copy of an item that has its outcome as redundant, not as a second end", () => {
    const check = checkChaosInvariant(
      evidence({ deadLetters: [{ messageId: "m1", body: "{}", receiveCount: 5 }] }),
    );

    assert.equal(check.ok, true);
    assert.equal(check.counts.redundantDeadLetters, 1);
  });

  it("finds a second outcome written for the same message under another key", () => {
    const rows = [...cleanRows(), row("_unparsed", "m3", "rejected", "m3", { reason: "x" })];

    const check = checkChaosInvariant(evidence({ rows }));

    assert.equal(check.ok, false);
    assert.equal(check.counts.duplicates, 1);
  });

  it("finds an outcome for another state, or from a message not sent for the item, as conflicting", () => {
    const otherState = cleanRows().map((r) => (r.id === "a" ? { ...r, state_sha256: "s-other" } : r));
    const otherMessage = cleanRows().map((r) => (r.id === "a" ? { ...r, source: { message_id: "m4" } } : r));

    assert.equal(checkChaosInvariant(evidence({ rows: otherState })).counts.conflicting, 1);
    assert.equal(checkChaosInvariant(evidence({ rows: otherMessage })).counts.conflicting, 1);
  });

  it("refuses a valid item rejected other than by a rule, and accepts a rule's reject", () => {
    const rejected = (rules: unknown[]) =>
      cleanRows().map((r) =>
        r.id === "a" ? { ...r, status: "rejected", reason: "endpoint", rules_fired: rules } : r,
      );

    assert.equal(checkChaosInvariant(evidence({ rows: rejected([]) })).ok, false);
    assert.equal(
      checkChaosInvariant(evidence({ rows: rejected([{ name: "duplicate_rejected", effect: "reject" }]) }))
        .ok,
      true,
    );
  });

  it("refuses poison that was decided or rejected without a reason", () => {
    const decided = cleanRows().map((r) => (r.id === "p" ? { ...r, status: "decided" } : r));
    const silent = cleanRows().map((r) => (r.id === "m5" ? { ...r, reason: undefined } : r));

    assert.equal(checkChaosInvariant(evidence({ rows: decided })).violations[0]?.kind, "poison-not-rejected");
    assert.equal(checkChaosInvariant(evidence({ rows: silent })).violations[0]?.kind, "poison-not-rejected");
  });

  it("finds an outcome nobody sent", () => {
    const check = checkChaosInvariant(
      evidence({ rows: [...cleanRows(), row("ticket-routing", "zz", "decided", "m9")] }),
    );

    assert.equal(check.ok, false);
    assert.equal(check.counts.unexpected, 1);
  });

  describe("with both lanes", () => {
    // Item a is sent in both lanes (m1 interactive, m2 bulk); the dual pair and the poison are split.
    const laneSent: SentMessage[] = [
      { messageId: "m1", item: 0, lane: "interactive" },
      { messageId: "m2", item: 0, lane: "bulk" },
      { messageId: "m3", item: 1, lane: "interactive" },
      { messageId: "m4", item: 2, lane: "bulk" },
      { messageId: "m5", item: 3, lane: "interactive" },
      { messageId: "m6", item: 4, lane: "bulk" },
    ];
    const lanes = (overrides: Partial<ChaosEvidence> = {}) =>
      evidence({ sent: laneSent, queueRemaining: { interactive: 0, bulk: 0 }, ...overrides });
    const withoutD1 = () => cleanRows().filter((r) => !(r.id === "d" && r.policy === "ticket-routing"));

    it("counts each lane by the message that ended the item, and an item sent in both lanes as ended once", () => {
      const check = checkChaosInvariant(lanes());

      assert.equal(check.ok, true, JSON.stringify(check.violations));
      const { interactive, bulk } = check.counts.lanes;
      assert.deepEqual([interactive.messages, bulk.messages], [3, 3]);
      // a ended from m2 (bulk), d1 from m3 (interactive), d2 from m4 (bulk).
      assert.deepEqual([interactive.decided, bulk.decided], [1, 2]);
      assert.deepEqual([interactive.poison, bulk.poison], [1, 1]);
      assert.deepEqual([interactive.poisonRejected, bulk.poisonRejected], [1, 1]);
      assert.deepEqual(check.counts.crossLane, { items: 1, endedOnce: 1 });
    });

    it("finds a second outcome of an item sent in both lanes as a duplicate of the lane that wrote it", () => {
      const rows = [...cleanRows(), row("ticket-routing", "a", "decided", "m1", { state_sha256: "s-a" })];

      const check = checkChaosInvariant(lanes({ rows }));

      assert.equal(check.ok, false);
      assert.equal(check.counts.duplicates, 1);
      assert.equal(check.counts.lanes.interactive.duplicates, 1);
      assert.equal(check.counts.lanes.bulk.duplicates, 0);
      assert.deepEqual(check.counts.crossLane, { items: 1, endedOnce: 0 });
      assert.match(check.violations[0]?.detail ?? "", /sent in both lanes/);
    });

    it("accepts a dead letter in its own lane's DLQ and refuses one in the other lane's", () => {
      const reasons = new Map([["m3", "TransientEndpointError: … ModelError (model status 500)"]]);
      const own = checkChaosInvariant(
        lanes({
          rows: withoutD1(),
          deadLetters: [{ messageId: "m3", body: "{}", receiveCount: 5, lane: "interactive" }],
          failureReasons: reasons,
        }),
      );
      const other = checkChaosInvariant(
        lanes({
          rows: withoutD1(),
          deadLetters: [{ messageId: "m3", body: "{}", receiveCount: 5, lane: "bulk" }],
          failureReasons: reasons,
        }),
      );

      assert.equal(own.ok, true, JSON.stringify(own.violations));
      assert.equal(own.counts.lanes.interactive.deadLettered, 1);
      assert.equal(other.ok, false);
      assert.equal(other.counts.deadLetteredElsewhere, 1);
      assert.equal(other.counts.lanes.bulk.deadLetteredElsewhere, 1);
      assert.equal(other.violations[0]?.kind, "dead-lettered-in-other-lane");
    });

    it("refuses a message dead-lettered only for being busy", () => {
      const check = checkChaosInvariant(
        lanes({
          rows: withoutD1(),
          deadLetters: [{ messageId: "m3", body: "{}", receiveCount: 5, lane: "interactive" }],
          failureReasons: new Map([
            [
              "m3",
              "EndpointBusyError: no call to the decision endpoint decisions could start before the deadline",
            ],
          ]),
        }),
      );

      assert.equal(check.ok, false);
      assert.equal(check.counts.deadLetteredBusy, 1);
      assert.equal(check.counts.lanes.interactive.deadLetteredBusy, 1);
      assert.equal(check.violations[0]?.kind, "dead-lettered-busy");
    });

    it("tells not drained from lost per lane: a lane's queued messages cover only its own items", () => {
      // d1 travelled in interactive (empty queue), d2 in bulk (one message queued).
      const rows = cleanRows().filter((r) => r.id !== "d");

      const check = checkChaosInvariant(lanes({ rows, queueRemaining: { interactive: 0, bulk: 1 } }));

      assert.equal(check.ok, false);
      assert.equal(check.counts.lanes.bulk.notDrained, 1);
      assert.equal(check.counts.lanes.interactive.lost, 1);
      assert.deepEqual([check.counts.notDrained, check.counts.lost, check.counts.queueRemaining], [1, 1, 1]);
    });

    it("lets an item sent in both lanes be queued in either", () => {
      const rows = cleanRows().filter((r) => r.id !== "a");

      const check = checkChaosInvariant(lanes({ rows, queueRemaining: { interactive: 1, bulk: 0 } }));

      assert.equal(check.counts.lost, 0);
      assert.equal(check.counts.lanes.interactive.notDrained, 1);
    });
  });

  it("reads a busy failure from the decide function's log reason as its isBusyFailure does", () => {
    assert.equal(isBusyReason("EndpointBusyError: no call could start before the deadline"), true);
    assert.equal(isBusyReason("DeadlineExceededError: the invocation ran out of time"), true);
    assert.equal(
      isBusyReason(
        "RetriesExhaustedError: gave up after 3 attempts: the decision endpoint failed for now: decisions ModelError (model status 503): busy",
      ),
      true,
    );
    assert.equal(
      isBusyReason(
        "TransientEndpointError: the decision endpoint failed for now: decisions ModelError (model status 500)",
      ),
      false,
    );
    assert.equal(
      isBusyReason("RetriesExhaustedError: gave up after 3 attempts: connect ECONNREFUSED"),
      false,
    );
  });
});
