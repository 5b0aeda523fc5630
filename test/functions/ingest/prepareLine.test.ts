import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
import { checkpointsOfEvent } from "../../../functions/ingest/checkpointsOfEvent.js";
import { lineId, prepareLine } from "../../../functions/ingest/prepareLine.js";

let policies: PolicySet;
before(async () => {
  policies = await loadPolicies("policies");
});

const origin = { bucket: "b", key: "k.jsonl", line: 3 };

describe("prepareLine", () => {
  it("adds a deterministic id to a line without one, leaving the state's text as written", () => {
    const line = '{"policy": "batch-classification", "state": {"2024": 2.0}}';

    const prepared = prepareLine(line, origin, policies);

    assert.equal(prepared.kind, "message");
    const id = lineId(origin);
    assert.equal(prepared.id, id);
    assert.equal(
      prepared.kind === "message" && prepared.body,
      `{"id": "${id}", "policy": "batch-classification", "state": {"2024": 2.0}}`,
    );
    assert.equal(lineId(origin), id, "the same object and line give the same id");
    assert.notEqual(lineId({ ...origin, line: 4 }), id);
  });

  it("keeps a line with an id unchanged", () => {
    const line = '{"id": "D-1", "policy": "batch-classification", "state": "text"}';
    const prepared = prepareLine(line, origin, policies);
    assert.equal(prepared.kind === "message" && prepared.body, line);
  });

  it("names the object and line of a bad line", () => {
    const prepared = prepareLine(
      '{"id": "D-1", "policy": "batch-classification", "state": "x", "facts": {"source_system": "fax"}}',
      origin,
      policies,
    );
    assert.equal(prepared.kind, "rejected");
    assert.match(
      prepared.kind === "rejected" ? prepared.reason : "",
      /^s3:\/\/b\/k\.jsonl line 3: facts: source_system/,
    );
  });
});

describe("checkpointsOfEvent", () => {
  it("reads an S3 notification (URL-encoded keys), an EventBridge Object Created event and a previous result", () => {
    const notification = {
      Records: [{ s3: { bucket: { name: "b" }, object: { key: "in/a+b%C3%A9.jsonl", versionId: "v1" } } }],
    };
    assert.deepEqual(checkpointsOfEvent(notification), [
      { bucket: "b", key: "in/a bé.jsonl", versionId: "v1", line: 1, byteOffset: 0 },
    ]);
    const created = {
      source: "aws.s3",
      "detail-type": "Object Created",
      detail: { bucket: { name: "b" }, object: { key: "in/a b.jsonl" } },
    };
    assert.deepEqual(checkpointsOfEvent(created), [
      { bucket: "b", key: "in/a b.jsonl", line: 1, byteOffset: 0 },
    ]);
    const pending = [{ bucket: "b", key: "k", line: 8, byteOffset: 900 }];
    assert.deepEqual(checkpointsOfEvent({ objects: [], pending }), pending);
  });

  it("refuses anything else", () => {
    assert.throws(() => checkpointsOfEvent({ hello: 1 }), /ingest function takes/);
  });
});
