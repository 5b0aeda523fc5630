/** Lambda's rules for an SQS batch's result, case by case. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SQSRecord } from "aws-lambda";
import { readBatchResponse } from "../../../local/eventSource/readBatchResponse.js";

function record(messageId: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body: "{}",
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: "1",
      SenderId: "s",
      ApproximateFirstReceiveTimestamp: "1",
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:work",
    awsRegion: "us-east-1",
  };
}

const batch = [record("a"), record("b"), record("c")];
const ids = (records: SQSRecord[]) => records.map((each) => each.messageId);

describe("readBatchResponse", () => {
  it("counts every record as succeeded for an empty, null or undefined response", () => {
    for (const value of [undefined, null, {}, { batchItemFailures: [] }]) {
      const outcome = readBatchResponse(batch, { ok: true, value }, true);
      assert.deepEqual(ids(outcome.succeeded), ["a", "b", "c"], JSON.stringify(value));
      assert.equal(outcome.wholeBatchFailure, undefined);
    }
  });

  it("fails exactly the listed records", () => {
    const outcome = readBatchResponse(
      batch,
      { ok: true, value: { batchItemFailures: [{ itemIdentifier: "b" }] } },
      true,
    );
    assert.deepEqual(ids(outcome.succeeded), ["a", "c"]);
    assert.deepEqual(ids(outcome.failed), ["b"]);
  });

  it("fails the whole batch for a throw", () => {
    const outcome = readBatchResponse(batch, { ok: false, error: new TypeError("bad") }, true);
    assert.deepEqual(ids(outcome.failed), ["a", "b", "c"]);
    assert.equal(outcome.wholeBatchFailure, "TypeError: bad");
  });

  it("fails the whole batch for an identifier that is empty, missing or not in the batch", () => {
    for (const failure of [
      { itemIdentifier: "" },
      {},
      { itemIdentifier: "zzz" },
      { itemIdentifier: 7 },
      null,
    ]) {
      const outcome = readBatchResponse(batch, { ok: true, value: { batchItemFailures: [failure] } }, true);
      assert.deepEqual(ids(outcome.failed), ["a", "b", "c"], JSON.stringify(failure));
      assert.ok(outcome.wholeBatchFailure);
    }
  });

  it("fails the whole batch for a response that is not an object or a batchItemFailures that is not a list", () => {
    for (const value of ["ok", 3, [], { batchItemFailures: "b" }]) {
      assert.ok(readBatchResponse(batch, { ok: true, value }, true).wholeBatchFailure, JSON.stringify(value));
    }
  });

  it("ignores the response without ReportBatchItemFailures", () => {
    const outcome = readBatchResponse(
      batch,
      { ok: true, value: { batchItemFailures: [{ itemIdentifier: "b" }] } },
      false,
    );
    assert.deepEqual(ids(outcome.succeeded), ["a", "b", "c"]);
  });
});
