/** The Puts of a line's transaction, as the job ledger sent them before they were named. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineAuditOf, linePutItem, outcomePutItem } from "../../../core/jobs/ledgerItems.js";
import { resultLineOf } from "../../../core/jobs/resultLineOf.js";
import { writeOnceOutcomePut } from "../../../core/outcomes/writeOnce.js";
import { jobLineOutcome } from "../../support/jobLineOutcome.js";

const created = "2026-12-01T23:00:00.000Z";
const ended = "2026-12-01T00:00:00.015Z";

describe("ledgerItems", () => {
  it("puts a duplicate line once, with the standing outcome's line and audit", () => {
    // prepare: line 2 repeats id "a", whose rejected outcome (from line 7) stands
    const standing = jobLineOutcome("J", 7, "a", "rejected", created);
    // act
    const put = linePutItem("jobs", "J", resultLineOf(2, standing, true), lineAuditOf(standing), ended);
    // assert
    assert.deepEqual(put, {
      Put: {
        TableName: "jobs",
        Item: {
          line: 2,
          id: "a",
          policy: "ticket-routing",
          status: "rejected",
          reason: "bad",
          duplicate: true,
          policy_version: 3,
          model: "tiny",
          job_id: "J",
          ended_at: ended,
        },
        ConditionExpression: "attribute_not_exists(#line)",
        ExpressionAttributeNames: { "#line": "line" },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    });
  });

  it("replaces a dead-lettered line item only while it is dead-lettered", () => {
    // prepare
    const outcome = jobLineOutcome("J", 4, "d", "decided", created);
    // act
    const put = linePutItem("jobs", "J", resultLineOf(4, outcome), lineAuditOf(outcome), ended, {
      replacing: "dead_lettered",
    });
    // assert
    assert.equal(put.Put.ConditionExpression, "#status = :replacing");
    assert.deepEqual(put.Put.ExpressionAttributeNames, { "#status": "status" });
    assert.deepEqual(put.Put.ExpressionAttributeValues, { ":replacing": "dead_lettered" });
    assert.deepEqual(put.Put.Item.answers, { queue: { answer: "billing", probability: 0.9 } });
  });

  it("writes the outcome once, returning the one that stands when it fails", () => {
    // prepare
    const outcome = jobLineOutcome("J", 1, "a", "decided", created);
    // act
    const put = outcomePutItem("outcomes", outcome);
    // assert: the outcome store's own write-once Put
    assert.deepEqual(put, { Put: writeOnceOutcomePut("outcomes", outcome) });
    assert.equal(put.Put.ConditionExpression, "attribute_not_exists(#id)");
    assert.equal(put.Put.ReturnValuesOnConditionCheckFailure, "ALL_OLD");
  });

  it("audits the policy version and hash, the model and its hash, and the request's usage", () => {
    // prepare
    const outcome = {
      ...jobLineOutcome("J", 5, "b", "decided", created),
      policy_sha256: "p",
      model_sha256: "abc",
      request: { endpoint: "decisions", group_size: 4, attempts: 1, input_tokens: 120, cached_tokens: 100 },
      timings: { endpoint_ms: 35 },
      lane: "interactive" as const,
    };
    // act
    const audit = lineAuditOf(outcome);
    // assert
    assert.deepEqual(audit, {
      usage: { group_size: 4, input_tokens: 120, cached_tokens: 100, endpoint_ms: 35, lane: "interactive" },
      policy_version: 3,
      policy_sha256: "p",
      model: "tiny",
      model_sha256: "abc",
    });
  });
});
