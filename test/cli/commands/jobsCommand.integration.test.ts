/**
 * `decisions jobs list|show|wait|results` against DynamoDB Local (the real jobs table definition)
 * and fauxqs (the results object), with job records written as the pipeline stores them.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createJobsCommand } from "../../../cli/commands/jobsCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { emptyJobCounts, JOB_RECORD_KIND, type Job, JobSchema } from "../../../contract/index.js";
import { JobNotFoundError, JobsTableError, jobIdOf, jobsTableDefinition } from "../../../core/jobs/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../../local/services/startDynamoDbLocal.js";
import { type Fauxqs, startFauxqs } from "../../../local/services/startFauxqs.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { JobResultsNotReadyError } from "../../../operations/jobs/index.js";

const TABLE = "jobs";

function capture(tty = false) {
  let out = "";
  let err = "";
  const command = createJobsCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text), isTTY: tty },
    signals: { once: () => undefined, off: () => undefined },
  });
  return { command, stdout: () => out, stderr: () => err };
}

function jobRecord(
  key: string,
  createdAt: string,
  overrides: Partial<Job> = {},
): Job & Record<string, unknown> {
  const job = JobSchema.parse({
    job_id: jobIdOf({ bucket: "ingest", key, etag: "e1" }),
    source: `s3://ingest/${key}`,
    bucket: "ingest",
    key,
    etag: "e1",
    status: "deciding",
    counts: { ...emptyJobCounts(), lines: 4, sent: 3, rejected_at_ingest: 1 },
    created_at: createdAt,
    updated_at: createdAt,
    ...overrides,
  });
  return { ...job, line: 0, record_kind: JOB_RECORD_KIND };
}

describe("decisions jobs (integration)", () => {
  let dynamodbLocal: DynamoDbLocal;
  let fauxqs: Fauxqs;
  let documents: DynamoDBDocumentClient;
  let s3: S3Client;
  let table: string[];
  let folder: string;
  const older = jobRecord("incoming/a.jsonl", "2026-12-01T10:00:00.000Z");
  const newer = jobRecord("incoming/b.jsonl", "2026-12-01T11:00:00.000Z", {
    status: "complete_with_errors",
    counts: {
      ...emptyJobCounts(),
      lines: 4,
      sent: 3,
      rejected_at_ingest: 1,
      outcomes: { decided: 2, fallback: 1, overridden: 0, rejected: 1 },
      ended: 4,
    },
    results_uri: "s3://ingest/results/b/results.jsonl",
    manifest_uri: "s3://ingest/results/b/manifest.json",
    completed_at: "2026-12-01T11:05:00.000Z",
  });

  before(async () => {
    [dynamodbLocal, fauxqs] = await Promise.all([startDynamoDbLocal({ env: process.env }), startFauxqs()]);
    const dynamodb = new DynamoDBClient({
      region: "us-east-1",
      endpoint: dynamodbLocal.endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    documents = DynamoDBDocumentClient.from(dynamodb);
    await dynamodb.send(new CreateTableCommand(jobsTableDefinition(TABLE)));
    for (const job of [older, newer]) await documents.send(new PutCommand({ TableName: TABLE, Item: job }));
    s3 = new S3Client({
      region: "us-east-1",
      endpoint: fauxqs.endpoint,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    await s3.send(new CreateBucketCommand({ Bucket: "ingest" }));
    table = ["--table", TABLE, "--endpoint-url", dynamodbLocal.endpoint];
    folder = await mkdtemp(join(tmpdir(), "jobs-command-"));
  });

  after(async () => {
    documents?.destroy();
    s3?.destroy();
    await Promise.all([dynamodbLocal?.stop(), fauxqs?.stop()]);
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("lists the newest jobs first, one JSON line each with the documented keys", async () => {
    const run = capture();
    assert.equal(await run.command.run(["list", "--json", ...table]), 0);
    const lines = run
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => line.job_id),
      [newer.job_id, older.job_id],
    );
    assert.deepEqual(Object.keys(lines[0]), [
      "job_id",
      "source",
      "status",
      "counts",
      "results_uri",
      "manifest_uri",
    ]);
    assert.equal(lines[0].counts.ended, 4);
    assert.equal(lines[1].results_uri, null);

    const human = capture();
    assert.equal(await human.command.run(["list", "--limit", "1", ...table]), 0);
    assert.match(human.stdout(), /1 newest job\(s\)/);
    assert.match(
      human.stdout(),
      new RegExp(`${newer.job_id}\\s+complete_with_errors\\s+4/4 lines\\s+s3://ingest/incoming/b.jsonl`),
    );
  });

  it("shows one job in full, and says what to do for an unknown id", async () => {
    const run = capture();
    assert.equal(await run.command.run(["show", newer.job_id, ...table]), 0);
    assert.match(run.stdout(), /lines\s+4: sent 3, rejected at ingest 1/);
    assert.match(run.stdout(), /ended\s+4: decided 2, fallback 1, overridden 0, rejected 1, dead-lettered 0/);
    assert.match(run.stdout(), /results\s+s3:\/\/ingest\/results\/b\/results.jsonl/);
    await assert.rejects(
      capture().command.run(["show", "job-00000000000000000000000000000000", ...table]),
      (error: unknown) => error instanceof JobNotFoundError && /decisions jobs list/.test(error.message),
    );
  });

  it("says which flags to pass when the table does not exist", async () => {
    await assert.rejects(
      capture().command.run(["list", "--table", "nope", "--endpoint-url", dynamodbLocal.endpoint]),
      (error: unknown) =>
        error instanceof JobsTableError && /--table/.test(error.message) && /jobs_table/.test(error.message),
    );
  });

  it("refuses a flag of another sub-command and a missing id", async () => {
    await assert.rejects(
      capture().command.run(["show", newer.job_id, "--timeout", "3", ...table]),
      UsageError,
    );
    await assert.rejects(capture().command.run(["wait", ...table]), UsageError);
    await assert.rejects(
      capture().command.run(["wait", older.job_id, "--timeout", "soon", ...table]),
      UsageError,
    );
  });

  it("waits until the job ends: progress lines meanwhile, exit 1 for complete_with_errors", {
    timeout: 60_000,
  }, async () => {
    const waiting = jobRecord("incoming/c.jsonl", "2026-12-01T12:00:00.000Z");
    await documents.send(new PutCommand({ TableName: TABLE, Item: waiting }));
    const run = capture();
    const exit = run.command.run(["wait", waiting.job_id, "--interval", "0.1", "--json", ...table]);
    // Once the wait has read the job (its first progress line), the last lines end.
    while (!run.stderr().includes("0/4 lines ended")) await new Promise((resolve) => setTimeout(resolve, 50));
    await documents.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { job_id: waiting.job_id, line: 0 },
        UpdateExpression: "SET #status = :status, counts.ended = :ended, counts.outcomes.rejected = :one",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":status": "complete_with_errors", ":ended": 4, ":one": 1 },
      }),
    );
    assert.equal(await exit, 1);
    const summary = JSON.parse(run.stdout());
    assert.equal(summary.status, "complete_with_errors");
    assert.equal(summary.counts.ended, 4);
    assert.match(run.stderr(), new RegExp(`${waiting.job_id} deciding: 0/4 lines ended`));
  });

  it("exits 124 when the timeout passes first, and 0 for a complete job", { timeout: 60_000 }, async () => {
    const run = capture();
    assert.equal(
      await run.command.run(["wait", older.job_id, "--timeout", "0.3", "--interval", "0.1", ...table]),
      124,
    );
    assert.match(run.stderr(), /still deciding after 0.3 s/);
    const complete = jobRecord("incoming/d.jsonl", "2026-12-01T13:00:00.000Z", { status: "complete" });
    await documents.send(new PutCommand({ TableName: TABLE, Item: complete }));
    assert.equal(await capture().command.run(["wait", complete.job_id, ...table]), 0);
  });

  it("draws a progress bar on a terminal", { timeout: 60_000 }, async () => {
    const run = capture(true);
    assert.equal(await run.command.run(["wait", newer.job_id, ...table]), 1);
    assert.match(run.stderr(), /\[.*\] 100% \| 4\/4 lines \| [\d.]+ lines\/s \| ETA/);
  });

  it("streams the results object to --out, and says to wait while there is none", async () => {
    const body = [
      '{"line":1,"id":"a","policy":"p","status":"decided"}',
      '{"line":2,"id":"b","policy":"p","status":"rejected"}',
    ];
    await s3.send(
      new PutObjectCommand({
        Bucket: "ingest",
        Key: "results/b/results.jsonl",
        Body: `${body.join("\n")}\n`,
      }),
    );
    const out = join(folder, "results.jsonl");
    const s3Flags = ["--s3-endpoint-url", fauxqs.endpoint];
    const run = capture();
    assert.equal(await run.command.run(["results", newer.job_id, "--out", out, ...s3Flags, ...table]), 0);
    assert.equal(await readFile(out, "utf8"), `${body.join("\n")}\n`);
    const printed = capture();
    assert.equal(await printed.command.run(["results", newer.job_id, ...s3Flags, ...table]), 0);
    assert.equal(printed.stdout(), `${body.join("\n")}\n`);
    await assert.rejects(
      capture().command.run(["results", older.job_id, ...s3Flags, ...table]),
      (error: unknown) =>
        error instanceof JobResultsNotReadyError && /decisions jobs wait/.test(error.message),
    );
  });
});
