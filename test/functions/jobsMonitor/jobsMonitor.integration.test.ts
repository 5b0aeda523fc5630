/** The jobs monitor on DynamoDB Local: jobs in progress, lines pending and stalled jobs from the jobs table. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobLedger, jobsTableDefinition } from "../../../core/jobs/index.js";
import { createJobsMonitorDeps, createJobsMonitorHandler } from "../../../functions/jobsMonitor/index.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import { type DynamoDbLocal, LOCAL_CREDENTIALS, startDynamoDbLocal } from "../../../local/index.js";
import { ManualClock } from "../../support/ManualClock.js";
import { captureStdout } from "../support/captureStdout.js";

const REGION = "us-east-1";
const MINUTE = 60_000;
const deadline = () => new Deadline(Date.now() + 30_000);

describe("the jobs monitor on DynamoDB Local (integration)", () => {
  let dynamo: DynamoDbLocal;
  let client: DynamoDBClient;
  let ledger: JobLedger;
  const clock = new ManualClock(Date.parse("2026-12-02T10:00:00.000Z"));
  const now = clock.time;

  /** Moves the ledger's clock to `minutesAgo` before now, then runs `write`. */
  async function at<T>(minutesAgo: number, write: () => Promise<T>): Promise<T> {
    clock.time = now - minutesAgo * MINUTE;
    return write();
  }

  async function startJob(key: string, minutesAgo: number): Promise<string> {
    const { job } = await at(minutesAgo, () =>
      ledger.start({ bucket: "ingest", key, versionId: "v1" }, { deadline: deadline() }),
    );
    return job.job_id;
  }

  async function deadLetter(jobId: string, line: number, minutesAgo: number): Promise<void> {
    await at(minutesAgo, () =>
      ledger.recordDeadLettered(
        jobId,
        { line, id: `${jobId}-${line}`, policy: "ticket-routing", status: "dead_lettered", reason: "x" },
        { deadline: deadline() },
      ),
    );
  }

  before(async () => {
    dynamo = await startDynamoDbLocal({ env: process.env });
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    await client.send(new CreateTableCommand(jobsTableDefinition("jobs")));
    ledger = new JobLedger({
      client: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
      jobsTable: "jobs",
      retry: new RetryPolicy({ maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 }),
      clock,
    });
  });

  after(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  it("counts the jobs not final, their lines not ended and those unchanged for longer than the stall time", async () => {
    // Prepare: jobs in every state the monitor tells apart, written at their own times.
    await startJob("incoming/too-old.jsonl", 20 * 24 * 60); // outside the 14-day lookback
    const done = await startJob("incoming/done.jsonl", 120);
    await at(120, () => ledger.markRead(done, 1, { deadline: deadline() }));
    await deadLetter(done, 1, 110);
    await at(100, () =>
      ledger.complete(
        done,
        { status: "complete_with_errors", completed_at: new Date(clock.time).toISOString() },
        {
          deadline: deadline(),
        },
      ),
    );
    const quiet = await startJob("incoming/quiet.jsonl", 90);
    await at(90, () => ledger.markRead(quiet, 4, { deadline: deadline() }));
    await deadLetter(quiet, 1, 90);
    const moving = await startJob("incoming/moving.jsonl", 10);
    await at(10, () => ledger.markRead(moving, 5, { deadline: deadline() }));
    await deadLetter(moving, 1, 6);
    await deadLetter(moving, 2, 5);
    const stuckReading = await startJob("incoming/stuck-reading.jsonl", 61);
    clock.time = now;
    const logger = new Logger({ serviceName: "jobs-monitor", logLevel: "SILENT" });
    const metrics = new Metrics({ namespace: "Decisions", serviceName: "jobs-monitor" });
    const handler = createJobsMonitorHandler(
      createJobsMonitorDeps(
        { jobsTable: "jobs", stallMinutes: 60, lookbackDays: 14 },
        { dynamodb: client, clock, logger, metrics },
      ),
    );
    const context = createLambdaContext({ functionName: "jobs-monitor", region: REGION, timeoutMs: 60_000 });

    // Act: one scheduled check.
    const { result, lines } = await captureStdout(() => handler({}, context));

    // Assert: the tally and the metrics Powertools published.
    assert.deepEqual(result, {
      inProgress: 3,
      linesPending: 3 + 3,
      stalled: [quiet, stuckReading],
      ended: [],
    });
    const emf = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((doc) => "_aws" in doc);
    assert.ok(emf !== undefined, `an EMF document among ${lines.length} lines`);
    assert.deepEqual(
      [emf.JobsInProgress, emf.JobLinesPending, emf.JobsStalled, emf.service],
      [3, 6, 2, "jobs-monitor"],
    );
  });

  it("reports zeros once nothing is in progress, so the alarm returns to OK", async () => {
    const table = "jobs-empty";
    await client.send(new CreateTableCommand(jobsTableDefinition(table)));
    const metrics = new Metrics({ namespace: "Decisions", serviceName: "jobs-monitor" });
    const handler = createJobsMonitorHandler(
      createJobsMonitorDeps(
        { jobsTable: table, stallMinutes: 60, lookbackDays: 14 },
        { dynamodb: client, clock, logger: new Logger({ logLevel: "SILENT" }), metrics },
      ),
    );
    const context = createLambdaContext({ functionName: "jobs-monitor", region: REGION, timeoutMs: 60_000 });

    const { result, lines } = await captureStdout(() => handler({}, context));

    assert.deepEqual(result, { inProgress: 0, linesPending: 0, stalled: [], ended: [] });
    const emf = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((doc) => "_aws" in doc);
    assert.deepEqual([emf?.JobsInProgress, emf?.JobLinesPending, emf?.JobsStalled], [0, 0, 0]);
  });
});
