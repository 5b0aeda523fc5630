import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { SQSRecord } from "aws-lambda";
import { DeadlineExceededError, RetriesExhaustedError } from "../../../core/common/errors.js";
import { TransientEndpointError } from "../../../core/endpoint/errors.js";
import { isBusyFailure } from "../../../core/endpoint/isBusyFailure.js";
import { BusyRecordRequeuer, RequeueError } from "../../../core/flow/BusyRecordRequeuer.js";
import { REQUEUE_ATTRIBUTES, readRequeueLineage } from "../../../core/flow/requeueAttributes.js";
import { requeueBusyRecords } from "../../../core/flow/requeueBusyRecords.js";

type Sent = { name: string; input: Record<string, unknown> };

/** An SQS client double: GetQueueUrl answers a URL, SendMessage a new id (or fails when told to). */
function fakeSqs(options: { failSends?: boolean } = {}) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      if (command.constructor.name === "GetQueueUrlCommand") {
        return {
          QueueUrl: `http://127.0.0.1:1/${String(command.input.QueueOwnerAWSAccountId)}/${String(command.input.QueueName)}`,
        };
      }
      if (options.failSends) throw new Error("connect ECONNREFUSED");
      return { MessageId: `copy-${sent.length}` };
    },
  };
  return { sqs: client as unknown as SQSClient, sent };
}

function record(messageId: string, attributes: SQSRecord["messageAttributes"] = {}): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body: `{"id":"${messageId}"}`,
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: "1700000000000",
      SenderId: "x",
      ApproximateFirstReceiveTimestamp: "1700000000001",
    },
    messageAttributes: attributes,
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:decisions-work",
    awsRegion: "us-east-1",
  };
}

describe("BusyRecordRequeuer", () => {
  it("sends the same body and attributes to the record's own queue, delayed, with its lineage", async () => {
    const { sqs, sent } = fakeSqs();
    const requeuer = new BusyRecordRequeuer({ sqs, random: () => 0.5 });

    const copy = await requeuer.requeue(
      record("m1", { tenant: { dataType: "String", stringValue: "acme" } }),
    );

    assert.deepEqual(
      sent.map((each) => each.name),
      ["GetQueueUrlCommand", "SendMessageCommand"],
    );
    const input = sent[1]?.input as Record<string, unknown> & {
      MessageAttributes: Record<string, { StringValue?: string }>;
    };
    assert.equal(input.QueueUrl, "http://127.0.0.1:1/000000000000/decisions-work");
    assert.equal(input.MessageBody, '{"id":"m1"}');
    assert.equal(input.DelaySeconds, 1);
    assert.equal(input.MessageAttributes.tenant?.StringValue, "acme");
    assert.equal(input.MessageAttributes[REQUEUE_ATTRIBUTES.requeues]?.StringValue, "1");
    assert.equal(input.MessageAttributes[REQUEUE_ATTRIBUTES.firstMessageId]?.StringValue, "m1");
    assert.equal(input.MessageAttributes[REQUEUE_ATTRIBUTES.firstSentMs]?.StringValue, "1700000000000");
    assert.deepEqual(copy, { messageId: "copy-2", delaySeconds: 1, requeues: 1, firstMessageId: "m1" });
  });

  it("keeps the first message through later re-queues, counts them, and looks the queue up once", async () => {
    const { sqs, sent } = fakeSqs();
    const requeuer = new BusyRecordRequeuer({ sqs, random: () => 0.5 });
    const again = record("copy-7", {
      [REQUEUE_ATTRIBUTES.requeues]: { dataType: "Number", stringValue: "3" },
      [REQUEUE_ATTRIBUTES.firstMessageId]: { dataType: "String", stringValue: "m1" },
      [REQUEUE_ATTRIBUTES.firstSentMs]: { dataType: "Number", stringValue: "1600000000000" },
    });

    const copy = await requeuer.requeue(again);
    await requeuer.requeue(record("m2"));

    assert.equal(copy.requeues, 4);
    assert.equal(copy.firstMessageId, "m1");
    // Fourth re-queue: cap min(60, 2·2^3) = 16, half of it.
    assert.equal(copy.delaySeconds, 8);
    assert.equal(sent.filter((each) => each.name === "GetQueueUrlCommand").length, 1);
    const attributes = sent[1]?.input.MessageAttributes as Record<string, { StringValue?: string }>;
    assert.equal(attributes[REQUEUE_ATTRIBUTES.firstSentMs]?.StringValue, "1600000000000");
  });

  it("waits at least the Retry-After and never beyond SQS's 900 s", () => {
    const requeuer = new BusyRecordRequeuer({ sqs: fakeSqs().sqs, random: () => 0 });

    assert.equal(requeuer.delayFor(1), 1);
    assert.equal(requeuer.delayFor(1, 4_500), 5);
    assert.equal(requeuer.delayFor(1, 10_000_000), 900);
  });

  it("says why when the copy cannot be sent", async () => {
    const failing = new BusyRecordRequeuer({ sqs: fakeSqs({ failSends: true }).sqs });
    const noQueue = new BusyRecordRequeuer({ sqs: fakeSqs().sqs });

    await assert.rejects(failing.requeue(record("m1")), RequeueError);
    await assert.rejects(
      noQueue.requeue({ ...record("m1"), eventSourceARN: "nonsense" }),
      /names no SQS queue/,
    );
  });
});

describe("requeueBusyRecords", () => {
  const busy = new RetriesExhaustedError(3, "budget", {
    cause: new TransientEndpointError({
      endpointName: "decisions",
      errorName: "ModelError",
      originalStatusCode: 503,
      retryAfterMs: 3_000,
    }),
  });
  const broken = new RetriesExhaustedError(6, "attempts", { cause: new Error("ECONNRESET") });

  it("re-queues the busy records and leaves real failures to SQS", async () => {
    const { sqs, sent } = fakeSqs();
    const records = [record("ok"), record("busy"), record("broken"), record("late")];
    const requeued: string[] = [];

    const indices = await requeueBusyRecords(
      records,
      new Map<number, unknown>([
        [1, busy],
        [2, broken],
        [3, new DeadlineExceededError("1 item(s) of ticket-routing")],
      ]),
      {
        requeuer: new BusyRecordRequeuer({ sqs, random: () => 0 }),
        isBusy: isBusyFailure,
        onRequeued: (each) => requeued.push(each.messageId),
      },
    );

    assert.deepEqual([...indices].sort(), [1, 3]);
    assert.deepEqual(requeued.sort(), ["busy", "late"]);
    const busyCopy = sent.find((each) => each.input.MessageBody === '{"id":"busy"}');
    assert.equal(busyCopy?.input.DelaySeconds, 3, "the endpoint's Retry-After");
  });

  it("gives a busy record back as it was when its copy cannot be sent", async () => {
    const failures: string[] = [];
    const indices = await requeueBusyRecords([record("busy")], new Map([[0, busy]]), {
      requeuer: new BusyRecordRequeuer({ sqs: fakeSqs({ failSends: true }).sqs }),
      isBusy: isBusyFailure,
      onRequeueFailed: (each) => failures.push(each.messageId),
    });

    assert.equal(indices.size, 0);
    assert.deepEqual(failures, ["busy"]);
  });
});

describe("readRequeueLineage", () => {
  it("reads nothing from a first delivery and ignores attributes that are not counts", () => {
    assert.deepEqual(readRequeueLineage(undefined), { requeues: 0 });
    assert.deepEqual(readRequeueLineage({ [REQUEUE_ATTRIBUTES.requeues]: { stringValue: "x" } }), {
      requeues: 0,
    });
  });
});
