/**
 * A batch job end to end on the real local stack: DynamoDB Local, fauxqs (SQS and S3), the real
 * adapter on the generated tiny model behind the SageMaker gateway, the poller running the real
 * decide handler, the real ingest handler — both with the jobs table — and the results writer
 * started by the update that found the job's last line ended.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand } from "@aws-sdk/client-dynamodb";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import {
  JOB_RECORD_KIND,
  JOBS_LIST_INDEX,
  type JobCompletedDetail,
  JobCompletedDetailSchema,
  JobManifestSchema,
  JobResultLineSchema,
} from "../../../contract/index.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import { JobLedger, JobResultsWriter, jobsTableDefinition } from "../../../core/jobs/index.js";
import { createDecideDeps, createDecideHandler, readDecideConfig } from "../../../functions/decide/index.js";
import { createIngestDeps, createIngestHandler, readIngestConfig } from "../../../functions/ingest/index.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import { type LocalStack, startLocalStack } from "../../../local/index.js";
import { s3PutEvent } from "../../../local/ingest/s3PutEvent.js";

const JOBS_TABLE = "jobs-it";

/** Valid lines of all three policies and invalid ones, a blank line and a repeated id. */
async function inputLines(): Promise<string[]> {
  const first = async (file: string, count: number) =>
    (await readFile(`events/work-items/${file}`, "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, count);
  const [tickets, documents, incidents] = await Promise.all([
    first("tickets.jsonl", 2),
    first("documents.jsonl", 2),
    first("incidents.jsonl", 2),
  ]);
  return [
    ...tickets,
    "{not json",
    ...documents,
    "",
    JSON.stringify({ id: "JOB-BAD-1", policy: "no-such-policy", state: "x" }),
    ...incidents,
    JSON.stringify({ id: "JOB-BAD-2", policy: "ticket-routing" }),
    tickets[0] as string,
  ];
}

describe("batch jobs on the local stack (integration)", { timeout: 900_000 }, () => {
  let stack: LocalStack;
  const events: JobCompletedDetail[] = [];
  let writer: JobResultsWriter;
  let documents: DynamoDBDocumentClient;
  const writes: Promise<unknown>[] = [];
  const onJobEnded = async (jobId: string) => {
    // As the jobs table's stream invokes the results writer on AWS: after the write, not inside it.
    writes.push(writer.write(jobId));
  };

  before(async () => {
    let creatingJobsTable: Promise<unknown> | undefined;
    stack = await startLocalStack({
      env: process.env,
      adapterThreads: 2,
      maxReceiveCount: 5,
      createHandler: async (context) => {
        // Built once per lane: the table is created by the first.
        creatingJobsTable ??= context.dynamodb.send(new CreateTableCommand(jobsTableDefinition(JOBS_TABLE)));
        await creatingJobsTable;
        const config = readDecideConfig(
          {
            OUTCOMES_TABLE: context.table,
            ENDPOINT_NAME: context.endpointName,
            POLICY_DIR: "policies",
            JOBS_TABLE,
            MAX_RECEIVE_COUNT: "5",
          },
          "policies",
        );
        const deps = await createDecideDeps(config, {
          sagemakerRuntime: context.sagemakerRuntime,
          dynamodb: context.dynamodb,
          sqs: context.sqs,
          logger: new Logger({ serviceName: "decide", logLevel: "ERROR" }),
          metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
          onJobEnded,
        });
        return createDecideHandler(deps);
      },
    });
    documents = DynamoDBDocumentClient.from(stack.clients.dynamodb, {
      marshallOptions: { removeUndefinedValues: true },
    });
    writer = new JobResultsWriter({
      ledger: new JobLedger({
        client: documents,
        jobsTable: JOBS_TABLE,
        outcomesTable: stack.table,
        retry: new RetryPolicy({ maxAttempts: 3 }),
      }),
      s3: stack.clients.s3,
      publish: async (detail) => {
        events.push(JobCompletedDetailSchema.parse(detail));
      },
    });
  });

  after(async () => {
    await stack?.stop();
  });

  async function ingest(key: string, body: string, put: { ETag?: string; VersionId?: string }) {
    const config = readIngestConfig(
      { WORK_QUEUE_URL: stack.queueUrl, OUTCOMES_TABLE: stack.table, POLICY_DIR: "policies", JOBS_TABLE },
      "policies",
    );
    const deps = await createIngestDeps(config, {
      s3: stack.clients.s3,
      sqs: stack.clients.sqs,
      dynamodb: stack.clients.dynamodb,
      logger: new Logger({ serviceName: "ingest", logLevel: "ERROR" }),
      metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "ingest" }),
      onJobEnded,
    });
    const handler = createIngestHandler(deps);
    const context = createLambdaContext({ functionName: "ingest", region: stack.region, timeoutMs: 60_000 });
    return handler(
      s3PutEvent({
        bucket: stack.bucket,
        key,
        size: Buffer.byteLength(body),
        ...(put.ETag !== undefined ? { eTag: put.ETag.replaceAll('"', "") } : {}),
        ...(put.VersionId !== undefined ? { versionId: put.VersionId } : {}),
        region: stack.region,
      }),
      context,
    );
  }

  /** Waits for a job to reach a final status, as long as its count of ended lines keeps moving. */
  async function waitFinal(ledger: JobLedger, jobId: string) {
    let last = -1;
    let still = 0;
    for (;;) {
      await Promise.all(writes);
      const job = await ledger.get(jobId);
      assert.ok(job, "the job exists");
      if (["complete", "complete_with_errors", "failed"].includes(job.status)) return job;
      if (job.counts.ended === last) still += 1;
      else [last, still] = [job.counts.ended, 0];
      // 600 polls of 0.5 s without a single line ending: the pipeline is stuck.
      assert.ok(
        still < 600,
        `job ${jobId} stopped at ${job.counts.ended} of ${job.counts.lines ?? "?"} lines`,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  it("an object of valid and invalid lines ends complete_with_errors with ordered results, a manifest that adds up and the completion event; the same version again makes no second job or outcome", async () => {
    const lines = await inputLines();
    const body = `${lines.join("\n")}\n`;
    const key = "incoming/job-it.jsonl";
    const put = await stack.clients.s3.send(
      new PutObjectCommand({
        Bucket: stack.bucket,
        Key: key,
        Body: body,
        ContentType: "application/x-ndjson",
      }),
    );
    const first = await ingest(key, body, put);
    const object = first.objects[0];
    assert.ok(object?.jobId, "ingest names the job");
    const jobId = object.jobId;
    const ledger = new JobLedger({
      client: documents,
      jobsTable: JOBS_TABLE,
      outcomesTable: stack.table,
      retry: new RetryPolicy({ maxAttempts: 3 }),
    });

    const job = await waitFinal(ledger, jobId);
    const nonBlank = lines
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(({ text }) => text.trim() !== "");
    assert.equal(job.status, "complete_with_errors");
    assert.equal(job.counts.lines, nonBlank.length);
    assert.equal(job.counts.rejected_at_ingest, 3, "not JSON, unknown policy, no state");
    assert.equal(job.counts.sent, nonBlank.length - 3);
    const outcomes = Object.values(job.counts.outcomes).reduce((sum, n) => sum + n, 0);
    assert.equal(outcomes + job.counts.dead_lettered, job.counts.lines, "every line ended once");
    assert.equal(job.counts.ended, job.counts.lines);
    assert.equal(job.counts.duplicates, 1, "the repeated ticket id");

    // The results: one line per (non-blank) input line, in input order.
    assert.ok(job.results_uri && job.manifest_uri);
    const read = async (uri: string) => {
      const [, , bucket, ...rest] = uri.split("/");
      const output = await stack.clients.s3.send(
        new GetObjectCommand({ Bucket: bucket, Key: rest.join("/") }),
      );
      return (await output.Body?.transformToString("utf8")) ?? "";
    };
    const results = (await read(job.results_uri))
      .split("\n")
      .filter((text) => text !== "")
      .map((text) => JobResultLineSchema.parse(JSON.parse(text)));
    assert.deepEqual(
      results.map((result) => result.line),
      nonBlank.map(({ line }) => line),
    );
    for (const result of results) {
      const source = lines[result.line - 1] as string;
      const parsed = (() => {
        try {
          return JSON.parse(source) as { id?: string };
        } catch {
          return {};
        }
      })();
      if (parsed.id !== undefined) assert.equal(result.id, parsed.id, `line ${result.line}`);
      if (result.status === "rejected" || result.status === "dead_lettered") assert.ok(result.reason);
      else
        assert.ok(
          result.answers && Object.keys(result.answers).length > 0,
          `line ${result.line} has answers`,
        );
    }
    assert.ok(
      results.find((result) => result.line === 3)?.status === "rejected",
      "the line that is not JSON",
    );
    // The first line and the last share an id. A standard queue keeps no order, so either can be
    // decided first: exactly one of the two is the duplicate, and both end with the outcome that stands.
    const [original, repeated] = [results[0], results.at(-1)];
    assert.equal(original?.id, repeated?.id);
    assert.deepEqual(
      [original?.duplicate === true, repeated?.duplicate === true].filter(Boolean),
      [true],
      "one of the two lines with the same id is the duplicate",
    );
    assert.equal(repeated?.status, original?.status, "a repeated id ends with the outcome that stands");

    // The manifest adds up and names the policies.
    const manifest = JobManifestSchema.parse(JSON.parse(await read(job.manifest_uri)));
    assert.equal(manifest.result_lines, results.length);
    assert.equal(manifest.counts.lines, manifest.counts.sent + manifest.counts.rejected_at_ingest);
    assert.equal(
      Object.values(manifest.counts.outcomes).reduce((sum, n) => sum + n, 0) + manifest.counts.dead_lettered,
      manifest.counts.lines,
    );
    assert.deepEqual(
      new Set(manifest.policies.map((policy) => policy.name)),
      new Set(["ticket-routing", "batch-classification", "incident-priority"]),
    );
    assert.ok(manifest.models.length > 0);

    // The completion event, once.
    assert.deepEqual(
      events.filter((event) => event.job_id === jobId).map((event) => [event.status, event.results_uri]),
      [["complete_with_errors", job.results_uri]],
    );

    // The same object version again: no second job, no second outcome.
    const outcomesBefore = await documents.send(
      new ScanCommand({ TableName: stack.table, ConsistentRead: true }),
    );
    const again = await ingest(key, body, put);
    assert.equal(again.objects[0]?.jobId, jobId);
    assert.equal(again.objects[0]?.alreadyIngested, true);
    assert.equal(again.objects[0]?.sent, 0);
    const jobs = await documents.send(
      new QueryCommand({
        TableName: JOBS_TABLE,
        IndexName: JOBS_LIST_INDEX.name,
        KeyConditionExpression: "#kind = :kind",
        ExpressionAttributeNames: { "#kind": JOBS_LIST_INDEX.partition },
        ExpressionAttributeValues: { ":kind": JOB_RECORD_KIND },
      }),
    );
    assert.equal(jobs.Items?.length, 1);
    const outcomesAfter = await documents.send(
      new ScanCommand({ TableName: stack.table, ConsistentRead: true }),
    );
    assert.equal(outcomesAfter.Items?.length, outcomesBefore.Items?.length);
    assert.equal((await ledger.get(jobId))?.counts.ended, job.counts.ended);
  });
});
