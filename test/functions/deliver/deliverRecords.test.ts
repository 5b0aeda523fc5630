/**
 * The deliver function's records: one attempt per receive against a receiver on 127.0.0.1; a
 * retry hides the message for the schedule's wait and gives it back; giving up puts the failure
 * with its reason on the target's DLQ and ends the record; a change the target does not want ends
 * it with nothing sent. SQS is a recording fake here (the local stack's integration test runs the
 * same units on fauxqs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { SQSRecord } from "aws-lambda";
import { DEFAULT_DELIVERY_SCHEDULE } from "../../../contract/delivery/deliverySchedule.js";
import type { ResolvedTarget } from "../../../core/delivery/index.js";
import { type DeliverDeps, deliverRecords, queueUrlOf } from "../../../functions/deliver/index.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/startWebhookReceiver.js";

const SECRET = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;
const QUEUE_ARN = "arn:aws:sqs:eu-west-1:123456789012:deliveries-helpdesk";
const OUTCOME = {
  policy: "ticket-routing",
  id: "T-1",
  policy_status: "ticket-routing#decided",
  status: "decided",
  rules_fired: [],
  source: { kind: "sqs" },
  created_at: "2026-12-07T10:00:00.000Z",
  updated_at: "2026-12-07T10:00:00.000Z",
};

function record(receiveCount: number, status = "decided"): SQSRecord {
  const detail = { eventName: "INSERT", dynamodb: { NewImage: marshall({ ...OUTCOME, status }) } };
  return {
    messageId: `m-${receiveCount}-${status}`,
    receiptHandle: "handle",
    body: JSON.stringify({ target: "ticket-routing/helpdesk", event: { detail } }),
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    eventSourceARN: QUEUE_ARN,
  } as unknown as SQSRecord;
}

describe("deliverRecords", () => {
  let receiver: WebhookReceiver;
  let status = 200;
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  let deps: DeliverDeps;

  before(async () => {
    receiver = await startWebhookReceiver(() => ({ status, body: "busy" }));
    const target: ResolvedTarget = {
      key: "ticket-routing/helpdesk",
      policy: "ticket-routing",
      target: {
        name: "helpdesk",
        url: receiver.url,
        secret: SECRET,
        on: ["decided"],
      },
      secret: SECRET,
    };
    deps = {
      sqs: {
        send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
          sent.push({ name: command.constructor.name, input: command.input });
          return {};
        },
      } as unknown as DeliverDeps["sqs"],
      targets: new Map([[target.key, target]]),
      dlqUrls: { "ticket-routing/helpdesk": "https://sqs.eu-west-1.amazonaws.com/123456789012/helpdesk-dlq" },
      schedule: DEFAULT_DELIVERY_SCHEDULE,
      random: () => 1,
    };
  });

  after(() => receiver.close());

  it("ends a delivered record", async () => {
    status = 204;
    sent.length = 0;
    assert.deepEqual(await deliverRecords([record(1)], deps), { batchItemFailures: [] });
    assert.deepEqual(sent, []);
  });

  it("hides a record answered 503 for the schedule's wait and gives it back", async () => {
    status = 503;
    sent.length = 0;
    const response = await deliverRecords([record(3)], deps);
    assert.deepEqual(response.batchItemFailures, [{ itemIdentifier: "m-3-decided" }]);
    assert.equal(sent[0]?.name, "ChangeMessageVisibilityCommand");
    assert.equal(sent[0]?.input.VisibilityTimeout, 20); // retry 3: 5 s · 2² with the jitter draw at 1
    assert.equal(sent[0]?.input.QueueUrl, queueUrlOf(QUEUE_ARN));
  });

  it("puts the failure with its reason on the target's DLQ after the last attempt, and ends the record", async () => {
    status = 503;
    sent.length = 0;
    const response = await deliverRecords([record(DEFAULT_DELIVERY_SCHEDULE.attempts)], deps);
    assert.deepEqual(response.batchItemFailures, []);
    assert.equal(sent[0]?.name, "SendMessageCommand");
    const failure = JSON.parse(String(sent[0]?.input.MessageBody)) as { reason: string; attempts: number };
    assert.equal(failure.attempts, 10);
    assert.match(failure.reason, /no 2xx after 10 attempts \(the last: HTTP 503\)/);
  });

  it("sends nothing for a status the target does not want", async () => {
    const before = receiver.got.length;
    sent.length = 0;
    assert.deepEqual(await deliverRecords([record(1, "rejected")], deps), { batchItemFailures: [] });
    assert.equal(receiver.got.length, before);
  });
});
