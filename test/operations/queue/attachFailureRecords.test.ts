import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FailureRecord } from "../../../contract/failures/FailureRecordSchema.js";
import {
  attachFailureRecords,
  type FailureRecordLookup,
} from "../../../operations/queue/attachFailureRecords.js";
import { describeMessageBody } from "../../../operations/queue/describeMessageBody.js";
import type { DeadLetter } from "../../../operations/queue/listDeadLetters.js";

const record = (over: Partial<FailureRecord>): FailureRecord => ({
  policy: "_failure#message#m-1",
  id: "last",
  record_kind: "failure",
  message_id: "m-1",
  error: "EndpointConfigurationError",
  failure_class: "configuration",
  reason: "endpoint decisions-typo not found",
  attempts: 5,
  failures: 5,
  first_failed_at: "2026-12-01T10:00:00.000Z",
  last_failed_at: "2026-12-01T10:12:00.000Z",
  expires_at: 1_800_000_000,
  ...over,
});

const letter = (messageId: string, body: string, reason?: string): DeadLetter => ({
  messageId,
  receiveCount: 5,
  attributes: [],
  body: describeMessageBody(body),
  ...(reason ? { reason } : {}),
});

/** A lookup over two maps, counting its reads; `failWith` makes every read throw. */
function lookup(
  byMessage: Record<string, FailureRecord>,
  byItem: Record<string, FailureRecord>,
  failWith?: Error,
) {
  const reads: string[] = [];
  const store: FailureRecordLookup = {
    tableName: "outcomes",
    byMessage: async (id) => {
      reads.push(`m:${id}`);
      if (failWith) throw failWith;
      return byMessage[id];
    },
    byItem: async (policy, id) => {
      reads.push(`i:${policy}/${id}`);
      return byItem[`${policy}/${id}`];
    },
  };
  return { store, reads };
}

describe("attachFailureRecords", () => {
  it("gives a dead letter its failure record by message id, else by the item its body names", async () => {
    const { store, reads } = lookup(
      { "m-1": record({}) },
      {
        "ticket-routing/T-2": record({
          message_id: "m-old",
          reason: "gave up after 6 attempts",
          error: "RetriesExhaustedError",
          failure_class: "transient",
        }),
      },
    );

    const { letters, unreadable } = await attachFailureRecords(
      [
        letter("m-1", '{"id": "T-1", "policy": "ticket-routing", "state": "s"}'),
        letter("m-2", '{"id": "T-2", "policy": "ticket-routing", "state": "s"}'),
        letter("m-3", "not json"),
      ],
      store,
    );

    assert.equal(unreadable, undefined);
    assert.equal(letters[0]?.reason, "endpoint decisions-typo not found");
    assert.deepEqual(letters[0]?.failure, {
      reason: "endpoint decisions-typo not found",
      error: "EndpointConfigurationError",
      failureClass: "configuration",
      attempts: 5,
      firstFailedAt: "2026-12-01T10:00:00.000Z",
      lastFailedAt: "2026-12-01T10:12:00.000Z",
    });
    assert.equal(letters[1]?.failure?.failureClass, "transient");
    assert.equal(letters[2]?.failure, undefined);
    assert.deepEqual(reads, ["m:m-1", "m:m-2", "i:ticket-routing/T-2", "m:m-3"]);
  });

  it("keeps the reason the message carries, and adds the record beside it", async () => {
    const { store } = lookup({ "m-1": record({}) }, {});

    const { letters } = await attachFailureRecords([letter("m-1", "{}", "endpoint timed out")], store);

    assert.equal(letters[0]?.reason, "endpoint timed out");
    assert.equal(letters[0]?.failure?.error, "EndpointConfigurationError");
  });

  it("lists the letters without records, and says why, when the table cannot be read", async () => {
    const denied = Object.assign(new Error("no access"), { name: "AccessDeniedException" });
    const { store, reads } = lookup({}, {}, denied);

    const { letters, unreadable } = await attachFailureRecords(
      [letter("m-1", "{}"), letter("m-2", "{}")],
      store,
    );

    assert.equal(letters.length, 2);
    assert.ok(letters.every((entry) => entry.failure === undefined));
    assert.match(unreadable ?? "", /outcomes could not be read \(AccessDeniedException: no access\)/);
    assert.deepEqual(reads, ["m:m-1"], "the first failing read stops the lookups");
  });
});
