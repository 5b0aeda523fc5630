/**
 * A large batch job through the local pipeline as `decisions up` runs it: the object put
 * under the ingest prefix of fauxqs' bucket starts the real ingest function through the upload
 * trigger, the poller runs the real decide function on the adapter serving the generated tiny
 * model, DynamoDB Local holds outcomes and the job, and the results writer starts from the update
 * that found the last line ended. The job must reach its final status with a results object of
 * exactly one line per input line in input order and a manifest whose counts add up.
 *
 * Kept cheap: 20 states in runs of 100 lines, and 100 records per decide invocation (the CDK
 * app's `batchSize` setting), so the endpoint is asked about once per batch and the time goes to
 * the job's own work (20,000 SQS messages, one DynamoDB transaction per line). No time is
 * asserted; the wait is bounded by progress (the job's count of ended lines must keep moving).
 *
 * Its size: `DECISIONS_JOB_SCALE_LINES` lines, 400 when unset. `npm test` runs that: 4 runs of
 * 100 lines, so 4 decide batches run 2 at a time, each state recurs and 8 lines are rejected at
 * ingest; every assertion counts lines, so it holds as well at 400 as at 20,000. One DynamoDB Local transaction per line
 * makes the 20,000 lines of the sizing figures take 10–13 minutes on 2 busy cores (docs/benchmarks: the job bench); `DECISIONS_JOB_SCALE_LINES=20000 node
 * --import tsx --test test/core/jobs/jobScale.integration.test.ts` runs that size.
 */
import assert from "node:assert/strict";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { after, describe, it } from "node:test";
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  isFinalJobStatus,
  type Job,
  type JobCompletedDetail,
  JobManifestSchema,
  JobResultLineSchema,
} from "../../../contract/index.js";
import { RetryPolicy } from "../../../core/common/index.js";
import { JobLedger, JobsReader } from "../../../core/jobs/index.js";
import { buildJobObject } from "../../../lab/bench/jobs/index.js";
import { createLocalDecideHandler, type LocalStack, startLocalStack } from "../../../local/index.js";

const LINES = scaleLines(process.env.DECISIONS_JOB_SCALE_LINES);
const KEY = "incoming/job-scale.jsonl";
/** Polls of the job record without a single line ending before the test calls the pipeline stuck. */
const STILL_POLLS = 3_000;
const POLL_MS = 100;

/** The test's line count: the variable's value (100 to 1,000,000), else 400. */
function scaleLines(text: string | undefined): number {
  if (text === undefined || text.trim() === "") return 400;
  const lines = Number(text);
  if (!Number.isInteger(lines) || lines < 100 || lines > 1_000_000)
    throw new RangeError(`DECISIONS_JOB_SCALE_LINES must be an integer from 100 to 1000000, got "${text}"`);
  return lines;
}

async function readObject(s3: S3Client, uri: string): Promise<Readable> {
  const [, , bucket, ...key] = uri.split("/");
  const output = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key.join("/") }));
  return output.Body as Readable;
}

describe(`a ${LINES.toLocaleString("en-US")}-line job on the local stack (integration)`, {
  timeout: 3_600_000,
}, () => {
  let stack: LocalStack | undefined;

  after(async () => {
    await stack?.stop();
  });

  it("reaches its final status; the results have one line per input line in order; the manifest adds up, each line counted once", async () => {
    const completed: JobCompletedDetail[] = [];
    const writeErrors: unknown[] = [];
    // The decide function's EMF metrics would print a line per batch.
    process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
    stack = await startLocalStack({
      env: process.env,
      adapterThreads: 2,
      createHandler: (context) => createLocalDecideHandler(context),
      ingest: {},
      jobs: {
        onCompleted: (detail) => completed.push(detail),
        onError: (_jobId, error) => writeErrors.push(error),
      },
      poller: { batchSize: 100, maximumBatchingWindowMs: 1000, maximumConcurrency: 2 },
    });
    const object = buildJobObject({ lines: LINES, distinctStates: 20, run: 100, invalidEvery: 50 });
    const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const jobsTable = String(stack.connectionInfo().jobs_table);
    const ledger = new JobLedger({
      client: documents,
      jobsTable,
      outcomesTable: stack.table,
      retry: new RetryPolicy({ maxAttempts: 3 }),
    });
    const reader = new JobsReader({ client: documents, tableName: jobsTable });

    await stack.clients.s3.send(new PutObjectCommand({ Bucket: stack.bucket, Key: KEY, Body: object.body }));

    // The job of the upload, followed while its count of ended lines keeps moving.
    const source = `s3://${stack.bucket}/${KEY}`;
    let job: Job | undefined;
    let last = -1;
    let still = 0;
    for (;;) {
      const jobId = job?.job_id ?? (await reader.newest(10)).find((found) => found.source === source)?.job_id;
      job = jobId === undefined ? undefined : await ledger.get(jobId);
      if (job !== undefined && isFinalJobStatus(job.status)) break;
      assert.deepEqual(writeErrors, [], "the results writer failed");
      const ended = job?.counts.ended ?? 0;
      if (ended === last) still += 1;
      else [last, still] = [ended, 0];
      assert.ok(
        still < STILL_POLLS,
        `the job stopped at ${ended} of ${job?.counts.lines ?? "?"} lines ended (${job?.status ?? "no job yet"})`,
      );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }

    // Every line ended once: the counts add up to the object's lines.
    assert.equal(job.status, "complete_with_errors", "the lines that are not JSON are rejected");
    assert.equal(job.counts.lines, LINES);
    assert.equal(job.counts.rejected_at_ingest, object.invalid);
    assert.equal(job.counts.sent, LINES - object.invalid);
    assert.equal(job.counts.ended, LINES);
    assert.equal(job.counts.duplicates, 0, "every id is its own");
    const outcomes = Object.values(job.counts.outcomes).reduce((sum, n) => sum + n, 0);
    assert.equal(outcomes + job.counts.dead_lettered, LINES, "each line counted under one status");
    assert.equal(job.counts.outcomes.rejected, object.invalid);

    // The results: exactly one line per input line, in input order, each with its line's id.
    assert.ok(job.results_uri !== undefined && job.manifest_uri !== undefined);
    let count = 0;
    const statuses: Record<string, number> = {};
    for await (const text of createInterface({
      input: await readObject(stack.clients.s3, job.results_uri),
    })) {
      if (text === "") continue;
      const result = JobResultLineSchema.parse(JSON.parse(text));
      count += 1;
      assert.equal(result.line, count, "results in input order, one per line");
      const id = object.ids[count - 1];
      if (id !== undefined) {
        assert.equal(result.id, id, `line ${count}'s id`);
        assert.ok(result.status !== "rejected", `line ${count} is valid`);
      } else assert.equal(result.status, "rejected", `line ${count} is not JSON`);
      statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    }
    assert.equal(count, LINES);
    const counted = Object.entries({ ...job.counts.outcomes, dead_lettered: job.counts.dead_lettered });
    assert.deepEqual(
      statuses,
      Object.fromEntries(counted.filter(([, n]) => n > 0)),
      "the results say what the counts say",
    );

    // The manifest says the same, and the completion event was told once.
    const manifestText = await (await readObject(stack.clients.s3, job.manifest_uri)).toArray();
    const manifest = JobManifestSchema.parse(JSON.parse(Buffer.concat(manifestText).toString("utf8")));
    assert.equal(manifest.result_lines, LINES);
    assert.deepEqual(manifest.counts, job.counts);
    assert.equal(manifest.counts.lines, manifest.counts.sent + manifest.counts.rejected_at_ingest);
    assert.deepEqual(
      completed.filter((detail) => detail.job_id === job.job_id).map((detail) => detail.status),
      ["complete_with_errors"],
    );
  });
});
