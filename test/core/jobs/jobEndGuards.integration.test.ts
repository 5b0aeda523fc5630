/**
 * The jobs table's guards on DynamoDB Local: a job whose last writer stopped before its end check
 * still ends (the jobs monitor makes the check good), and a line number outside the job is not
 * counted, whether it arrives before or after the job's line count is known.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobLedger, type JobLedgerOptions, jobsTableDefinition } from "../../../core/jobs/index.js";
import {
  type Outcome,
  OutcomeAlreadyRecordedError,
  OutcomeStore,
  OutcomesReader,
  outcomesTableDefinition,
} from "../../../core/outcomes/index.js";
import { JobsMonitor } from "../../../functions/jobsMonitor/index.js";
import { jobLineOutcome } from "../../support/jobLineOutcome.js";
import { ManualClock } from "../../support/ManualClock.js";
import { type LocalTables, startLocalTables } from "../../support/startLocalTables.js";

const at = "2026-12-07T10:00:00.000Z";
const deadline = () => new Deadline(Date.now() + 30_000);
const outcome = (jobId: string, line: number, id: string, status: Outcome["status"] = "decided"): Outcome =>
  jobLineOutcome(jobId, line, id, status, at);

/** A ledger whose writer stops (throws) at its next end check, once: a crash after the count. */
class StoppingLedger extends JobLedger {
  stopNext = false;
  override async checkEnded(jobId: string, options: { deadline: Deadline }): Promise<void> {
    if (this.stopNext) {
      this.stopNext = false;
      throw new Error("the writer stopped after its transaction committed");
    }
    return super.checkEnded(jobId, options);
  }
}

describe("a job's end and its line numbers on DynamoDB Local (integration)", () => {
  let tables: LocalTables;
  let ledger: StoppingLedger;
  let store: OutcomeStore;
  let options: JobLedgerOptions;
  const ended: string[] = [];
  const clock = new ManualClock(Date.parse(at));

  before(async () => {
    tables = await startLocalTables({
      tables: [outcomesTableDefinition("outcomes"), jobsTableDefinition("jobs")],
      maxAttempts: 1,
    });
    options = {
      client: tables.documents,
      jobsTable: "jobs",
      outcomesTable: "outcomes",
      retry: new RetryPolicy({ maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 }),
      clock,
      onEnded: async (jobId) => {
        ended.push(jobId);
      },
    };
    ledger = new StoppingLedger(options);
    store = new OutcomeStore({
      client: tables.documents,
      tableName: "outcomes",
      retry: options.retry,
      jobs: ledger,
    });
  });

  after(async () => {
    await tables?.stop();
  });

  async function startJob(key: string): Promise<string> {
    return (await ledger.start({ bucket: "b", key, versionId: "v1" }, { deadline: deadline() })).job.job_id;
  }

  it("ends a job whose last writer stopped between its count and its end check, at the monitor's next check", async () => {
    const jobId = await startJob("stopped.jsonl");
    await ledger.markRead(jobId, 3, { deadline: deadline() });
    await store.record(outcome(jobId, 1, "s1"), { deadline: deadline() });
    await store.record(outcome(jobId, 2, "s2"), { deadline: deadline() });
    ledger.stopNext = true;
    await assert.rejects(store.record(outcome(jobId, 3, "s3"), { deadline: deadline() }), /writer stopped/);
    const stuck = await ledger.get(jobId);
    assert.equal(stuck?.status, "deciding");
    assert.equal(stuck?.counts.ended, 3);
    assert.equal(stuck?.ended_at, undefined, "the end check was lost with the writer");
    assert.deepEqual(ended, []);

    // No message comes again (its last receive went to the DLQ, which was purged): the monitor.
    const monitor = new JobsMonitor({
      ledger: new JobLedger({ ...options, outcomesTable: undefined }),
      clock,
      stallMinutes: 60,
      lookbackDays: 14,
    });
    const check = await monitor.check();

    assert.deepEqual(check.ended, [jobId]);
    assert.ok((await ledger.get(jobId))?.ended_at, "ended_at set");
    assert.deepEqual(ended, [jobId], "the results writer started once");
    assert.deepEqual((await monitor.check()).ended, [], "a second check finds nothing to end");
  });

  it("rejects a line beyond the job's line count once it is known: not counted, the item rejected with the reason", async () => {
    const jobId = await startJob("beyond-after.jsonl");
    await ledger.markRead(jobId, 3, { deadline: deadline() });
    await store.record(outcome(jobId, 1, "a1"), { deadline: deadline() });
    await store.record(outcome(jobId, 2, "a2"), { deadline: deadline() });

    await store.record(outcome(jobId, 99, "a99"), { deadline: deadline() });

    const job = await ledger.get(jobId);
    assert.equal(job?.counts.ended, 2, "line 99 not counted");
    assert.equal(job?.ended_at, undefined, "not ended while line 3 is undecided");
    const stored = await new OutcomesReader({ client: tables.documents, tableName: "outcomes" }).get(
      "ticket-routing",
      "a99",
    );
    assert.equal(stored?.status, "rejected");
    assert.match(
      String(stored?.reason),
      /line 99 of job .*, whose object ends at line 3: a line outside the job is not counted/,
    );
    assert.equal(stored?.source.job_id, undefined, "the rejected outcome names no job");

    await store.record(outcome(jobId, 3, "a3"), { deadline: deadline() });
    const done = await ledger.get(jobId);
    assert.equal(done?.counts.ended, 3);
    assert.ok(done?.ended_at, "ended by its own line 3");
    const lines = [];
    for await (const item of ledger.lines(jobId)) lines.push(item.line);
    assert.deepEqual(lines, [1, 2, 3]);
    // Dead-lettered too: a line beyond the count is not counted.
    assert.equal(
      await ledger.recordDeadLettered(
        jobId,
        { line: 4, id: "a4", policy: "ticket-routing", status: "dead_lettered", reason: "x" },
        { deadline: deadline() },
      ),
      false,
    );
    assert.equal((await ledger.get(jobId))?.counts.ended, 3);
  });

  it("takes back a line beyond the count that was counted before the count was known", async () => {
    const jobId = await startJob("beyond-before.jsonl");
    await store.record(outcome(jobId, 1, "b1"), { deadline: deadline() });
    await store.record(outcome(jobId, 2, "b2"), { deadline: deadline() });
    await store.record(outcome(jobId, 99, "b99"), { deadline: deadline() });
    assert.equal((await ledger.get(jobId))?.counts.ended, 3, "counted while the count was unknown");

    const taken = await ledger.markRead(jobId, 3, { deadline: deadline() });

    assert.deepEqual(taken, [99]);
    const job = await ledger.get(jobId);
    assert.equal(job?.counts.ended, 2);
    assert.equal(job?.counts.outcomes.decided, 2);
    assert.equal(job?.ended_at, undefined, "not ended while line 3 is undecided");
    // A redelivery of line 99 now finds its outcome standing and the line refused: still not counted.
    await assert.rejects(
      store.put(outcome(jobId, 99, "b99"), { deadline: deadline() }),
      OutcomeAlreadyRecordedError,
    );
    assert.equal((await ledger.get(jobId))?.counts.ended, 2);

    await store.record(outcome(jobId, 3, "b3"), { deadline: deadline() });
    const done = await ledger.get(jobId);
    assert.deepEqual([done?.counts.ended, done?.counts.lines], [3, 3], "3 of 3, never 4 of 3");
    assert.ok(done?.ended_at);
  });

  it("counts the lines of an object with blank lines up to its last line number (blank lines keep their numbers)", async () => {
    const jobId = await startJob("blank-line-2.jsonl");
    await store.record(outcome(jobId, 4, "c4"), { deadline: deadline() });
    // Lines 1, 3 and 4 are the job's 3 lines; line 2 was blank.
    assert.deepEqual(await ledger.markRead(jobId, 3, { deadline: deadline(), lastLine: 4 }), []);
    await store.record(outcome(jobId, 1, "c1"), { deadline: deadline() });
    await store.record(outcome(jobId, 3, "c3"), { deadline: deadline() });
    const done = await ledger.get(jobId);
    assert.deepEqual([done?.counts.ended, done?.counts.lines], [3, 3]);
    assert.ok(done?.ended_at);
  });
});
