/** The S3 notification the demo hands the ingest function reads back as the object it names. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkpointsOfEvent } from "../../../functions/ingest/index.js";
import { s3PutEvent } from "../../../local/ingest/s3PutEvent.js";

describe("s3PutEvent", () => {
  it("encodes the key as S3 does, so the ingest function decodes it back", () => {
    const event = s3PutEvent({
      bucket: "ingest",
      key: "incoming/my batch+1.jsonl",
      size: 10,
      region: "eu-west-1",
    });
    const record = event.Records[0];
    assert.equal(record?.s3.object.key, "incoming/my+batch%2B1.jsonl");
    assert.equal(record?.eventName, "ObjectCreated:Put");
    assert.equal(record?.awsRegion, "eu-west-1");
    assert.deepEqual(checkpointsOfEvent(event), [
      { bucket: "ingest", key: "incoming/my batch+1.jsonl", line: 1, byteOffset: 0 },
    ]);
  });
});
