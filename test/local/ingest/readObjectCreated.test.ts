/** Which finished S3 requests created an object: what S3 sends an "Object Created" event for. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkpointsOfEvent } from "../../../functions/ingest/index.js";
import { objectCreatedEvent } from "../../../local/ingest/objectCreatedEvent.js";
import { type FinishedS3Request, readObjectCreated } from "../../../local/ingest/readObjectCreated.js";

const NOW = new Date("2026-12-01T23:00:00.000Z");

function request(overrides: Partial<FinishedS3Request>): FinishedS3Request {
  return {
    method: "PUT",
    route: "/:bucket/*",
    params: { bucket: "ingest", "*": "incoming/batch.jsonl" },
    query: {},
    headers: { "content-length": "42" },
    statusCode: 200,
    eTag: '"abc123"',
    ...overrides,
  };
}

describe("readObjectCreated", () => {
  it("reads a PutObject: bucket, key, unquoted ETag and the declared size", () => {
    assert.deepEqual(readObjectCreated(request({}), NOW), {
      bucket: "ingest",
      key: "incoming/batch.jsonl",
      eTag: "abc123",
      size: 42,
      reason: "PutObject",
      time: NOW,
    });
  });

  it("takes the decoded length of an aws-chunked body", () => {
    const created = readObjectCreated(
      request({ headers: { "content-length": "120", "x-amz-decoded-content-length": "64" } }),
      NOW,
    );
    assert.equal(created?.size, 64);
  });

  it("tells a copy and a completed multipart upload apart from a put", () => {
    const copy = readObjectCreated(request({ headers: { "x-amz-copy-source": "/ingest/a.jsonl" } }), NOW);
    assert.equal(copy?.reason, "CopyObject");
    assert.equal(copy?.size, undefined);
    const complete = readObjectCreated(
      request({ method: "POST", query: { uploadId: "u-1" }, eTag: undefined }),
      NOW,
    );
    assert.equal(complete?.reason, "CompleteMultipartUpload");
    assert.equal(complete?.eTag, undefined);
  });

  it("ignores requests that create no object", () => {
    const none: Partial<FinishedS3Request>[] = [
      { statusCode: 404 },
      { statusCode: 403 },
      { method: "GET" },
      { method: "DELETE" },
      { query: { uploadId: "u-1", partNumber: "1" } },
      { query: { tagging: "" } },
      { query: { renameObject: "" } },
      { method: "POST", query: { uploads: "" } },
      { method: "POST", query: { delete: "" } },
      { route: "/:bucket", params: { bucket: "ingest" } },
      { params: { bucket: "ingest", "*": "" } },
    ];
    for (const overrides of none) {
      assert.equal(readObjectCreated(request(overrides), NOW), undefined, JSON.stringify(overrides));
    }
  });

  it("becomes an EventBridge Object Created event that the ingest function reads as the object", () => {
    const created = readObjectCreated(request({ params: { bucket: "ingest", "*": "incoming/a b+c.jsonl" } }));
    assert.ok(created);
    const event = objectCreatedEvent(created, "eu-west-1");
    assert.equal(event.source, "aws.s3");
    assert.equal(event["detail-type"], "Object Created");
    assert.equal(event.region, "eu-west-1");
    assert.deepEqual(event.resources, ["arn:aws:s3:::ingest"]);
    assert.equal(event.detail.object.etag, "abc123");
    assert.deepEqual(checkpointsOfEvent(event), [
      { bucket: "ingest", key: "incoming/a b+c.jsonl", line: 1, byteOffset: 0 },
    ]);
  });
});
