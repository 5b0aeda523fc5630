/** The jobs table's counting on DynamoDB Local: each line once, whatever is written twice. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Deadline } from "../../../functions/common/Deadline.js";
import { RetryPolicy } from "../../../functions/common/RetryPolicy.js";
import { JobLedger, jobsTableDefinition } from "../../../functions/jobs/index.js";
import {
  type Outcome,
  OutcomeAlreadyRecordedError,
  OutcomeStore,
  outcomesTableDefinition,
} from "../../../functions/outcomes/index.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";

const at = "2026-12-01T23:00:00.000Z";
const deadline = () => new Deadline(Date.now() + 30_000);

function outcome(jobId: string, line: number, id: string, status: Outcome["status"]): Outcome {
  return {
    policy: "ticket-routing",
    id,
    policy_status: `ticket-routing#${status}`,
    status,
    ...(status === "rejected"
      ? { reason: "bad" }
      : {
          answers: {
            queue: {
              answer: "billing",
              probability: 0.9,
              distribution: { billing: 0.9, legal: 0.1 },
              threshold: 0.5,
              source: "model" as const,
            },
          },
        }),
    rules_fired: [],
    policy_version: 3,
    model: "tiny",
    source: { kind: "sqs", message_id: `m-${line}`, job_id: jobId, line },
    created_at: at,
    updated_at: at,
  };
}

describe("JobLedger on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let client: DynamoDBClient;
  let ledger: JobLedger;
  let store: OutcomeStore;
  const ended: string[] = [];

  before(async () => {
    dynamo = await startDynamoDbLocal();
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    await client.send(new CreateTableCommand(outcomesTableDefinition("outcomes")));
    await client.send(new CreateTableCommand(jobsTableDefinition("jobs")));
    const documents = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const retry = new RetryPolicy({ maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 });
    ledger = new JobLedger({
      client: documents,
      jobsTable: "jobs",
      outcomesTable: "outcomes",
      retry,
      onEnded: async (jobId) => {
        ended.push(jobId);
      },
    });
    store = new OutcomeStore({ client: documents, tableName: "outcomes", retry, jobs: ledger });
  });

  after(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  it("counts a redelivered line once, a repeated id once under the standing status, a dead letter once, and triggers once", async () => {
    const { job, created } = await ledger.start(
      { bucket: "b", key: "k.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    assert.equal(created, true);
    assert.equal(
      (await ledger.start({ bucket: "b", key: "k.jsonl", versionId: "v1" }, { deadline: deadline() }))
        .created,
      false,
    );
    const jobId = job.job_id;

    assert.equal(
      (await store.record(outcome(jobId, 1, "a", "decided"), { deadline: deadline() })).recorded,
      true,
    );
    // Redelivery of line 1: the outcome stands, nothing counted again.
    const again = await store.record(outcome(jobId, 1, "a", "decided"), { deadline: deadline() });
    assert.equal(again.recorded, false);
    // Line 2 repeats id "a" (another status offered): it ends with the standing outcome.
    await assert.rejects(
      store.put(outcome(jobId, 2, "a", "rejected"), { deadline: deadline() }),
      OutcomeAlreadyRecordedError,
    );
    assert.equal(
      (await store.record(outcome(jobId, 2, "a", "rejected"), { deadline: deadline() })).recorded,
      false,
    );
    assert.equal(
      await ledger.recordDeadLettered(
        jobId,
        { line: 3, id: "c", policy: "ticket-routing", status: "dead_lettered", reason: "x" },
        { deadline: deadline() },
      ),
      true,
    );
    assert.equal(
      await ledger.recordDeadLettered(
        jobId,
        { line: 3, id: "c", policy: "ticket-routing", status: "dead_lettered", reason: "x" },
        { deadline: deadline() },
      ),
      false,
    );
    assert.deepEqual(ended, [], "lines not known yet: not ended");
    await ledger.markRead(jobId, 4, { deadline: deadline() });
    assert.deepEqual(ended, []);
    await store.record(outcome(jobId, 4, "d", "rejected"), { deadline: deadline() });
    await ledger.checkEnded(jobId, { deadline: deadline() });
    assert.deepEqual(ended, [jobId], "triggered once");

    const stored = await ledger.get(jobId);
    assert.equal(stored?.status, "deciding");
    assert.ok(stored?.ended_at);
    assert.deepEqual(stored?.counts, {
      lines: 4,
      sent: 4,
      rejected_at_ingest: 0,
      outcomes: { decided: 2, fallback: 0, overridden: 0, rejected: 1 },
      dead_lettered: 1,
      ended: 4,
      duplicates: 1,
    });
    const lines = [];
    for await (const item of ledger.lines(jobId, 2))
      lines.push([item.line, item.status, item.duplicate ?? false]);
    assert.deepEqual(lines, [
      [1, "decided", false],
      [2, "decided", true],
      [3, "dead_lettered", false],
      [4, "rejected", false],
    ]);
    assert.equal(
      await ledger.complete(
        jobId,
        { status: "complete_with_errors", completed_at: at },
        { deadline: deadline() },
      ),
      true,
    );
    assert.equal(
      await ledger.complete(jobId, { status: "complete", completed_at: at }, { deadline: deadline() }),
      false,
    );
  });
});
