import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REQUEUE_ATTRIBUTES } from "../../../core/flow/requeueAttributes.js";
import { decideItems } from "../../../core/pipeline/index.js";
import { PolicySet, parsePolicy } from "../../../core/policy/index.js";
import { parseRecord } from "../../../functions/decide/parseRecord.js";
import {
  confidentAnswer,
  MemoryEndpoint,
  MemorySink,
  RecordingTelemetry,
} from "../../core/pipeline/memoryPorts.js";
import { policyText } from "../../core/policy/fabricate.js";
import { FakeClock } from "../../support/FakeClock.js";
import { sqsRecord } from "../support/sqsEvent.js";

const policy = parsePolicy(
  policyText(`facts:
  tier:
    type: string
    enum: [free, enterprise]
`),
  "test-policy.yaml",
);

/** Decides the records' inputs with in-memory ports; the sink holds what was written. */
async function decideRecords(...bodies: string[]) {
  const outcomes = new MemorySink();
  const endpoint = new MemoryEndpoint(() => confidentAnswer(policy));
  const { results } = await decideItems(
    bodies.map((body, index) => parseRecord(sqsRecord(body, 1, `m-${index}`))),
    { endpoint, outcomes, telemetry: new RecordingTelemetry(), clock: new FakeClock() },
    { policies: new PolicySet([policy]), deadlineMarginMs: 0, maxConcurrentGroups: 1 },
  );
  return { results, outcomes, endpoint };
}

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

  it("strips a UTF-8 byte order mark at the start of the body, as the other input paths do, and the item is decided", async () => {
    const body = '\uFEFF{"id": "T-3", "policy": "test-policy", "state": {"x": 2.0}}';

    const input = parseRecord(sqsRecord(body, 1, "m-bom"));
    const { results, endpoint } = await decideRecords(body);

    assert.equal(input.body, body.slice(1));
    assert.equal(results[0]?.status, "recorded");
    assert.equal(results[0]?.status === "recorded" ? results[0].outcome.status : "", "decided");
    assert.ok(endpoint.bodies[0]?.startsWith('{"state": {"x": 2.0}'), endpoint.bodies[0]);
  });

  it("leaves a byte order mark that is not at the start where it is (the body is then refused as JSON)", async () => {
    const body = ' \uFEFF{"id": "T-4", "policy": "test-policy", "state": "s"}';

    const { results } = await decideRecords(body);

    assert.equal(parseRecord(sqsRecord(body)).body, body);
    assert.ok(results[0]?.status === "recorded");
    assert.equal(results[0].outcome.status, "rejected");
    assert.match(results[0].outcome.reason ?? "", /not valid JSON/);
  });

  it("refuses a __proto__ fact key as undeclared (as ingest does) rather than dropping it", async () => {
    const body =
      '{"id": "T-5", "policy": "test-policy", "state": "s", "facts": {"__proto__": {"tier": "free"}}}';

    const { results, endpoint } = await decideRecords(body);

    assert.ok(results[0]?.status === "recorded");
    assert.equal(results[0].outcome.status, "rejected");
    assert.match(results[0].outcome.reason ?? "", /"__proto__" is not a fact this policy declares/);
    assert.deepEqual(results[0].outcome.reason_path, ["facts", "__proto__"]);
    assert.equal(endpoint.bodies.length, 0, "no model call is spent on it");
  });

  it("still decides an item whose declared facts are given", async () => {
    const { results } = await decideRecords(
      '{"id": "T-6", "policy": "test-policy", "state": "s", "facts": {"tier": "free"}}',
    );

    assert.ok(results[0]?.status === "recorded");
    assert.equal(results[0].outcome.status, "decided");
  });
});
