import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRecord } from "../../../functions/decide/parseRecord.js";
import { REQUEUE_ATTRIBUTES } from "../../../functions/flow/requeueAttributes.js";
import { sqsRecord } from "../support/sqsEvent.js";

describe("parseRecord", () => {
  it("reads an SQS record into the core's input: the body as it arrived, the message id, receive count and sent time", () => {
    const record = sqsRecord('{"id": "T-1", "policy": "ticket-routing", "state": {"x": 2.0}}', 3, "m-1");
    record.attributes.SentTimestamp = "1767225600000";

    const input = parseRecord(record);

    assert.deepEqual(input, {
      body: '{"id": "T-1", "policy": "ticket-routing", "state": {"x": 2.0}}',
      origin: { kind: "sqs", messageId: "m-1", receiveCount: 3, sentAt: 1767225600000 },
    });
  });

  it("counts a first delivery when the receive count is unreadable, and leaves out a missing sent time", () => {
    const record = sqsRecord("{}", 1, "m-2");
    record.attributes.ApproximateReceiveCount = "many";
    record.attributes.SentTimestamp = "";

    assert.deepEqual(parseRecord(record).origin, { kind: "sqs", messageId: "m-2", receiveCount: 1 });
  });

  it("reads a copy re-queued for capacity as the message its item first arrived in", () => {
    const record = sqsRecord('{"id": "T-2", "policy": "ticket-routing", "state": "s"}', 1, "copy-1");
    record.messageAttributes = {
      [REQUEUE_ATTRIBUTES.requeues]: { dataType: "Number", stringValue: "2" },
      [REQUEUE_ATTRIBUTES.firstMessageId]: { dataType: "String", stringValue: "m-first" },
      [REQUEUE_ATTRIBUTES.firstSentMs]: { dataType: "Number", stringValue: "1700000000000" },
    };

    assert.deepEqual(parseRecord(record).origin, {
      kind: "sqs",
      messageId: "m-first",
      receiveCount: 1,
      sentAt: 1_700_000_000_000,
    });
  });
});
