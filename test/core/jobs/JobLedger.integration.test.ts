/** The jobs table's counting on DynamoDB Local: each line once, whatever is written twice. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobLedger, jobsTableDefinition } from "../../../core/jobs/index.js";
import {
  type Outcome,
  OutcomeAlreadyRecordedError,
  OutcomeStore,
  outcomesTableDefinition,
} from "../../../core/outcomes/index.js";
import { jobLineOutcome } from "../../support/jobLineOutcome.js";
import { type LocalTables, startLocalTables } from "../../support/startLocalTables.js";

const at = "2026-12-01T23:00:00.000Z";
const deadline = () => new Deadline(Date.now() + 30_000);

const outcome = (jobId: string, line: number, id: string, status: Outcome["status"]): Outcome =>
  jobLineOutcome(jobId, line, id, status, at);

describe("JobLedger on DynamoDB Local (integration)", () => {
  let tables: LocalTables;
  let ledger: JobLedger;
  let store: OutcomeStore;
  const ended: string[] = [];

  before(async () => {
    tables = await startLocalTables({
      tables: [outcomesTableDefinition("outcomes"), jobsTableDefinition("jobs")],
      maxAttempts: 1,
    });
    const { documents } = tables;
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
    await tables?.stop();
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
  it("moves a redriven dead-lettered line from dead-lettered to its outcome's status once, and triggers no second end", async () => {
    // prepare: a job of two lines, line 2 dead-lettered, every line ended
    const { job } = await ledger.start(
      { bucket: "b", key: "redrive.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const jobId = job.job_id;
    await store.record(outcome(jobId, 1, "redrive-a", "decided"), { deadline: deadline() });
    const deadLetter = {
      line: 2,
      id: "redrive-b",
      policy: "ticket-routing",
      status: "dead_lettered" as const,
      reason: "x",
    };
    assert.equal(await ledger.recordDeadLettered(jobId, deadLetter, { deadline: deadline() }), true);
    await ledger.markRead(jobId, 2, { deadline: deadline() });
    assert.equal(ended.filter((id) => id === jobId).length, 1);
    assert.equal((await ledger.get(jobId))?.counts.dead_lettered, 1);

    // act: the redriven message is decided, then delivered again, and its last receive counted again
    const first = await store.record(outcome(jobId, 2, "redrive-b", "decided"), { deadline: deadline() });
    const again = await store.record(outcome(jobId, 2, "redrive-b", "decided"), { deadline: deadline() });
    const deadAgain = await ledger.recordDeadLettered(jobId, deadLetter, { deadline: deadline() });

    // assert: counted once under decided, no longer dead-lettered; the line item is the outcome's
    assert.equal(first.recorded, true);
    assert.equal(again.recorded, false);
    assert.equal(deadAgain, false);
    const stored = await ledger.get(jobId);
    assert.deepEqual(stored?.counts, {
      lines: 2,
      sent: 2,
      rejected_at_ingest: 0,
      outcomes: { decided: 2, fallback: 0, overridden: 0, rejected: 0 },
      dead_lettered: 0,
      ended: 2,
      duplicates: 0,
    });
    const lines = [];
    for await (const item of ledger.lines(jobId))
      lines.push([item.line, item.id, item.status, item.duplicate ?? false]);
    assert.deepEqual(lines, [
      [1, "redrive-a", "decided", false],
      [2, "redrive-b", "decided", false],
    ]);
    assert.equal(ended.filter((id) => id === jobId).length, 1, "the end was triggered once");
  });

  it("moves a redriven dead-lettered line whose id already had an outcome to that outcome, as a duplicate", async () => {
    // prepare: line 1 decided id "dup-a"; line 2, carrying the same id, dead-lettered
    const { job } = await ledger.start(
      { bucket: "b", key: "redrive-dup.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const jobId = job.job_id;
    await store.record(outcome(jobId, 1, "dup-a", "decided"), { deadline: deadline() });
    await ledger.recordDeadLettered(
      jobId,
      { line: 2, id: "dup-a", policy: "ticket-routing", status: "dead_lettered", reason: "x" },
      { deadline: deadline() },
    );
    await ledger.markRead(jobId, 2, { deadline: deadline() });

    // act: line 2 redriven, offering another status
    const result = await store.record(outcome(jobId, 2, "dup-a", "rejected"), { deadline: deadline() });

    // assert: the standing outcome is the line's, counted once as a duplicate
    assert.equal(result.recorded, false);
    const counts = (await ledger.get(jobId))?.counts;
    assert.equal(counts?.dead_lettered, 0);
    assert.deepEqual(counts?.outcomes, { decided: 2, fallback: 0, overridden: 0, rejected: 0 });
    assert.equal(counts?.duplicates, 1);
    assert.equal(counts?.ended, 2);
  });
});
