import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobLedger, jobLedgerOf, outcomeWritingOf } from "../../../core/jobs/index.js";

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: "us-east-1" }));
const retry = new RetryPolicy({ maxAttempts: 1 });

describe("jobLedgerOf", () => {
  it("keeps no jobs when JOBS_TABLE is empty or unset", () => {
    assert.equal(jobLedgerOf({ jobsTable: "", outcomesTable: "outcomes", client, retry }), undefined);
    assert.equal(jobLedgerOf({ outcomesTable: "outcomes", client, retry }), undefined);
  });

  it("builds a ledger over both tables when JOBS_TABLE is set", () => {
    const ledger = jobLedgerOf({ jobsTable: "jobs", outcomesTable: "outcomes", client, retry });

    assert.ok(ledger instanceof JobLedger);
    assert.equal(ledger.jobsTable, "jobs");
    assert.equal(ledger.outcomesTable, "outcomes");
  });
});

describe("outcomeWritingOf", () => {
  it("writes outcomes alone when JOBS_TABLE is empty", () => {
    const { outcomes, jobs } = outcomeWritingOf({ jobsTable: "", outcomesTable: "outcomes", client, retry });

    assert.equal(outcomes.tableName, "outcomes");
    assert.equal(jobs, undefined);
  });

  it("gives the store and the functions one ledger over both tables when JOBS_TABLE is set", () => {
    const { outcomes, jobs } = outcomeWritingOf({
      jobsTable: "jobs",
      outcomesTable: "outcomes",
      client,
      retry,
    });

    assert.equal(outcomes.tableName, "outcomes");
    assert.ok(jobs instanceof JobLedger);
    assert.equal(jobs.jobsTable, "jobs");
  });
});
