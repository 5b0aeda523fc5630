/**
 * The job's counters on DynamoDB Local: lines counted once on the counters, never on the job
 * record, under concurrent writers, duplicate deliveries and a crash between a line's transaction
 * and its end check; the end (`ended_at`) set once whoever sees it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { JOB_COUNTER_SHARDS } from "../../../contract/jobs/jobsTableKeys.js";
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

const at = "2026-12-03T10:00:00.000Z";
const deadline = () => new Deadline(Date.now() + 60_000);

const outcome = (jobId: string, line: number, id: string, status: "decided" | "rejected"): Outcome =>
  jobLineOutcome(jobId, line, id, status, at);

class SimulatedCrash extends Error {
  override name = "SimulatedCrash";
}

describe("the job's counters on DynamoDB Local (integration)", () => {
  let tables: LocalTables;
  let documents: DynamoDBDocumentClient;
  const retry = new RetryPolicy({ maxAttempts: 8, baseDelayMs: 5, maxDelayMs: 50 });
  const ended: string[] = [];

  /** Another client on DynamoDB Local (a second writer), destroyed with the others after the tests. */
  const newClient = () => tables.newClient();
  const documentsOf = (client: DynamoDBClient) => tables.documentsOf(client);
  const ledgerOn = (client: DynamoDBDocumentClient) =>
    new JobLedger({
      client,
      jobsTable: "jobs",
      outcomesTable: "outcomes",
      retry,
      onEnded: async (jobId) => {
        ended.push(jobId);
      },
    });
  const storeOf = (ledger: JobLedger, client: DynamoDBDocumentClient) =>
    new OutcomeStore({ client, tableName: "outcomes", retry, jobs: ledger });
  const endsOf = (jobId: string) => ended.filter((id) => id === jobId).length;
  const rawRecord = async (jobId: string) =>
    (
      await documents.send(
        new GetCommand({ TableName: "jobs", Key: { job_id: jobId, line: 0 }, ConsistentRead: true }),
      )
    ).Item;

  before(async () => {
    tables = await startLocalTables({
      tables: [outcomesTableDefinition("outcomes"), jobsTableDefinition("jobs")],
      maxAttempts: 1,
    });
    documents = tables.documents;
  });

  after(async () => {
    await tables?.stop();
  });

  it("creates the job record with its counters, all zero, once", async () => {
    // act
    const ledger = ledgerOn(documents);
    const first = await ledger.start(
      { bucket: "b", key: "counters.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const second = await ledger.start(
      { bucket: "b", key: "counters.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );

    // assert
    assert.equal(first.created, true);
    assert.equal(second.created, false);
    const items = await documents.send(
      new QueryCommand({
        TableName: "jobs",
        KeyConditionExpression: "job_id = :job",
        ExpressionAttributeValues: { ":job": first.job.job_id },
        ConsistentRead: true,
      }),
    );
    const lines = (items.Items ?? []).map((item) => item.line as number);
    assert.deepEqual(lines, [
      ...Array.from({ length: JOB_COUNTER_SHARDS }, (_, index) => index - JOB_COUNTER_SHARDS),
      0,
    ]);
    assert.ok((items.Items ?? []).filter((item) => item.line !== 0).every((item) => item.counts.ended === 0));
  });

  it("counts every line once when 16 writers deliver each line twice and repeat ids, without writing the job record per line, and ends the job once", async () => {
    // prepare: 120 lines; lines 111–120 repeat the ids of lines 1–10; every 7th id rejected;
    // each line delivered twice, the two copies far apart in a fixed shuffle
    const ledgers = Array.from({ length: 4 }, () => {
      const client = documentsOf(newClient());
      const ledger = ledgerOn(client);
      return { ledger, store: storeOf(ledger, client) };
    });
    const [main] = ledgers;
    assert.ok(main);
    const { job } = await main.ledger.start(
      { bucket: "b", key: "concurrent.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const jobId = job.job_id;
    const lines = 120;
    await main.ledger.markRead(jobId, lines, { deadline: deadline() });
    const recordBefore = await rawRecord(jobId);
    const deliveries = [...Array.from({ length: lines }, (_, index) => index + 1)].flatMap((line) => [
      line,
      line,
    ]);
    let seed = 7;
    for (let index = deliveries.length - 1; index > 0; index -= 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const other = seed % (index + 1);
      [deliveries[index], deliveries[other]] = [deliveries[other] as number, deliveries[index] as number];
    }
    // A repeat offers its id's own status, so the counts do not depend on which copy wrote first.
    const baseOf = (line: number) => (line > 110 ? line - 110 : line);
    const idOf = (line: number) => `concurrent-${baseOf(line)}`;
    const statusOf = (line: number) => (baseOf(line) % 7 === 0 ? "rejected" : "decided");

    // act: 16 writers take deliveries from one list, four ledgers (clients) between them
    let next = 0;
    let alreadyRecorded = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, writer) => {
        const { store } = ledgers[writer % ledgers.length] as (typeof ledgers)[number];
        for (let taken = next++; taken < deliveries.length; taken = next++) {
          const line = deliveries[taken] as number;
          const result = await store.record(outcome(jobId, line, idOf(line), statusOf(line)), {
            deadline: deadline(),
          });
          if (!result.recorded) alreadyRecorded += 1;
        }
      }),
    );

    // assert: each line counted once, the repeated ids under the status that stands
    const stored = await main.ledger.get(jobId);
    const rejected = Array.from({ length: 110 }, (_, index) => index + 1).filter(
      (line) => line % 7 === 0,
    ).length;
    const rejectedRepeats = Array.from({ length: 10 }, (_, index) => index + 1).filter(
      (line) => line % 7 === 0,
    ).length;
    assert.deepEqual(stored?.counts, {
      lines,
      sent: lines,
      rejected_at_ingest: 0,
      outcomes: {
        decided: lines - rejected - rejectedRepeats,
        fallback: 0,
        overridden: 0,
        rejected: rejected + rejectedRepeats,
      },
      dead_lettered: 0,
      ended: lines,
      duplicates: 10,
    });
    assert.equal(
      alreadyRecorded,
      lines + 10,
      "every second delivery and every repeated id found its outcome standing",
    );
    const items: number[] = [];
    for await (const item of main.ledger.lines(jobId, 50)) items.push(item.line);
    assert.deepEqual(
      items,
      Array.from({ length: lines }, (_, index) => index + 1),
    );
    // ended once, and the job record kept its counts: written by markRead and the end only
    assert.equal(endsOf(jobId), 1);
    assert.ok(stored?.ended_at);
    const recordAfter = await rawRecord(jobId);
    assert.deepEqual(recordAfter?.counts, recordBefore?.counts);
    assert.equal(recordAfter?.counts.ended, 0);
  });

  it("ends the job when a line's transaction committed but its writer crashed before the end check, on the line's redelivery", async () => {
    // prepare: a client that crashes right after the next committed line transaction (its Query of the counters fails)
    const crashing = newClient();
    let armed = false;
    crashing.middlewareStack.add(
      (next, context) => async (args) => {
        if (armed && context.commandName === "QueryCommand") {
          armed = false;
          throw new SimulatedCrash("simulated crash before the end check");
        }
        return next(args);
      },
      { step: "initialize", name: "simulatedCrash" },
    );
    const crashingDocuments = documentsOf(crashing);
    const crashingLedger = ledgerOn(crashingDocuments);
    const crashingStore = storeOf(crashingLedger, crashingDocuments);
    const ledger = ledgerOn(documents);
    const store = storeOf(ledger, documents);
    const { job } = await ledger.start(
      { bucket: "b", key: "crash.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const jobId = job.job_id;
    await ledger.markRead(jobId, 3, { deadline: deadline() });
    await store.record(outcome(jobId, 1, "crash-1", "decided"), { deadline: deadline() });

    // act 1: line 2 dead-lettered and line 3 decided, each writer crashing after its transaction
    armed = true;
    await assert.rejects(
      crashingLedger.recordDeadLettered(
        jobId,
        { line: 2, id: "crash-2", policy: "ticket-routing", status: "dead_lettered", reason: "x" },
        { deadline: deadline() },
      ),
    );
    armed = true;
    await assert.rejects(
      crashingStore.record(outcome(jobId, 3, "crash-3", "decided"), { deadline: deadline() }),
    );

    // assert 1: every line counted, the end not seen by anyone
    const meanwhile = await ledger.get(jobId);
    assert.equal(meanwhile?.counts.ended, 3);
    assert.equal(meanwhile?.ended_at, undefined);
    assert.equal(endsOf(jobId), 0);

    // act 2: line 3's message is delivered again (its failure was reported); then line 2's dead letter is counted again
    await assert.rejects(
      store.put(outcome(jobId, 3, "crash-3", "decided"), { deadline: deadline() }),
      OutcomeAlreadyRecordedError,
    );
    const deadAgain = await ledger.recordDeadLettered(
      jobId,
      { line: 2, id: "crash-2", policy: "ticket-routing", status: "dead_lettered", reason: "x" },
      { deadline: deadline() },
    );

    // assert 2: ended once, counted once
    assert.equal(deadAgain, false);
    assert.equal(endsOf(jobId), 1);
    const stored = await ledger.get(jobId);
    assert.ok(stored?.ended_at);
    assert.deepEqual(stored?.counts.outcomes, { decided: 2, fallback: 0, overridden: 0, rejected: 0 });
    assert.equal(stored?.counts.dead_lettered, 1);
    assert.equal(stored?.counts.ended, 3);
  });

  it("ends the job once when ingest's markRead and eight writers' end checks race after the last line", async () => {
    // prepare: every line ended while the job is still reading (no end possible yet)
    const ledger = ledgerOn(documents);
    const store = storeOf(ledger, documents);
    const { job } = await ledger.start(
      { bucket: "b", key: "race.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const jobId = job.job_id;
    for (let line = 1; line <= 20; line += 1)
      await store.record(outcome(jobId, line, `race-${line}`, "decided"), { deadline: deadline() });
    assert.equal(endsOf(jobId), 0);

    // act: ingest finishes reading while eight ledgers on their own clients check the end
    const checkers = Array.from({ length: 8 }, () => ledgerOn(documentsOf(newClient())));
    await Promise.all([
      ledger.markRead(jobId, 20, { deadline: deadline() }),
      ...checkers.map(async (checker) => {
        for (let round = 0; round < 3; round += 1) await checker.checkEnded(jobId, { deadline: deadline() });
      }),
    ]);
    await Promise.all(checkers.map((checker) => checker.checkEnded(jobId, { deadline: deadline() })));

    // assert
    assert.equal(endsOf(jobId), 1);
    const stored = await ledger.get(jobId);
    assert.equal(stored?.counts.ended, 20);
    assert.equal(stored?.counts.sent, 20);
    assert.ok(stored?.ended_at);
  });

  it("copies the counters' sum onto the record when the job reaches a final status, for the completion event", async () => {
    // prepare
    const ledger = ledgerOn(documents);
    const store = storeOf(ledger, documents);
    const { job } = await ledger.start(
      { bucket: "b", key: "final.jsonl", versionId: "v1" },
      { deadline: deadline() },
    );
    const jobId = job.job_id;
    await ledger.markRead(jobId, 2, { deadline: deadline() });
    await store.record(outcome(jobId, 1, "final-1", "decided"), { deadline: deadline() });
    await store.record(outcome(jobId, 2, "final-2", "rejected"), { deadline: deadline() });
    const counted = (await ledger.get(jobId))?.counts;
    assert.ok(counted);

    // act
    const won = await ledger.complete(
      jobId,
      { status: "complete_with_errors", completed_at: at, counts: counted },
      { deadline: deadline() },
    );

    // assert: the record's own counts (the stream's new image) are the sum; reading still sums the counters
    assert.equal(won, true);
    assert.deepEqual((await rawRecord(jobId))?.counts, counted);
    assert.deepEqual((await ledger.get(jobId))?.counts, counted);
  });
});
