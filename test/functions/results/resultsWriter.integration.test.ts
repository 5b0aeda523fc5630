/**
 * The results writer's handler on DynamoDB Local and fauxqs (S3), fed the stream records the jobs
 * table's event source gives it: results and final status written, a job whose line items do not
 * match its count marked failed and not given back, a write that fails for now given back.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { type JobCompletedDetail, JobCompletedDetailSchema } from "../../../contract/index.js";
import { Deadline } from "../../../core/common/Deadline.js";
import { RetryPolicy } from "../../../core/common/RetryPolicy.js";
import {
  JobLedger,
  JobResultsMismatchError,
  JobResultsWriter,
  jobsTableDefinition,
} from "../../../core/jobs/index.js";
import { createResultsWriterDeps, createResultsWriterHandler } from "../../../functions/results/index.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import {
  type DynamoDbLocal,
  type Fauxqs,
  LOCAL_CREDENTIALS,
  startDynamoDbLocal,
  startFauxqs,
} from "../../../local/index.js";
import { captureStdout } from "../support/captureStdout.js";

const REGION = "us-east-1";
const BUCKET = "ingest";
const TABLE = "jobs";
const deadline = () => new Deadline(Date.now() + 30_000);

/** The stream record of the change that set a job's `ended_at`, as the event source hands it over. */
function endedRecord(jobId: string, sequenceNumber: string): DynamoDBRecord {
  return {
    eventID: `e-${sequenceNumber}`,
    eventName: "MODIFY",
    eventSource: "aws:dynamodb",
    dynamodb: {
      Keys: { job_id: { S: jobId }, line: { N: "0" } },
      SequenceNumber: sequenceNumber,
      StreamViewType: "NEW_AND_OLD_IMAGES",
    },
  };
}

describe("the results writer's handler on DynamoDB Local and fauxqs (integration)", () => {
  let fauxqs: Fauxqs;
  let dynamo: DynamoDbLocal;
  let s3: S3Client;
  let dynamodb: DynamoDBClient;
  let documents: DynamoDBDocumentClient;
  let ledger: JobLedger;

  before(async () => {
    [fauxqs, dynamo] = await Promise.all([
      startFauxqs({ region: REGION }),
      startDynamoDbLocal({ env: process.env }),
    ]);
    const common = { region: REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
    s3 = new S3Client({ ...common, endpoint: fauxqs.endpoint, forcePathStyle: true });
    dynamodb = new DynamoDBClient({ ...common, endpoint: dynamo.endpoint });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    await dynamodb.send(new CreateTableCommand(jobsTableDefinition(TABLE)));
    documents = DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } });
    ledger = new JobLedger({
      client: documents,
      jobsTable: TABLE,
      retry: new RetryPolicy({ maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 }),
    });
  });

  after(async () => {
    s3?.destroy();
    dynamodb?.destroy();
    await Promise.all([fauxqs?.stop(), dynamo?.stop()]);
  });

  /** A job of `lines` lines, each ended as dead-lettered: its `ended_at` is set by the last one. */
  async function endedJob(key: string, lines: number): Promise<string> {
    const { job } = await ledger.start({ bucket: BUCKET, key, versionId: "v1" }, { deadline: deadline() });
    await ledger.markRead(job.job_id, lines, { deadline: deadline() });
    for (let line = 1; line <= lines; line += 1) {
      await ledger.recordDeadLettered(
        job.job_id,
        { line, id: `${key}-${line}`, policy: "ticket-routing", status: "dead_lettered", reason: "gone" },
        { deadline: deadline() },
      );
    }
    return job.job_id;
  }

  function writerHandler(s3Client: S3Client) {
    return createResultsWriterHandler(
      createResultsWriterDeps(
        { jobsTable: TABLE, maxAttempts: 3 },
        {
          s3: s3Client,
          dynamodb,
          logger: new Logger({ serviceName: "results", logLevel: "SILENT" }),
          metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "results" }),
        },
      ),
    );
  }

  async function invoke(handler: ReturnType<typeof writerHandler>, records: DynamoDBRecord[]) {
    const context = createLambdaContext({ functionName: "results", region: REGION, timeoutMs: 60_000 });
    const event: DynamoDBStreamEvent = { Records: records };
    return (await captureStdout(() => handler(event, context))).result;
  }

  it("writes an ended job's results and final status, and marks a job whose line items fall short failed", async () => {
    const ended = await endedJob("incoming/ended.jsonl", 3);
    const short = await endedJob("incoming/short.jsonl", 2);
    // A line item lost: the count says 3 ended of 3, the table holds 2.
    await documents.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { job_id: short, line: 0 },
        UpdateExpression: "SET counts.#lines = :three, counts.ended = :three, counts.dead_lettered = :three",
        ExpressionAttributeNames: { "#lines": "lines" },
        ExpressionAttributeValues: { ":three": 3 },
      }),
    );

    const response = await invoke(writerHandler(s3), [endedRecord(ended, "1"), endedRecord(short, "2")]);

    assert.deepEqual(response, { batchItemFailures: [] });
    const job = await ledger.get(ended);
    assert.equal(job?.status, "complete_with_errors");
    assert.equal(job?.results_uri, `s3://${BUCKET}/results/${ended}/results.jsonl`);
    const object = await s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: `results/${ended}/results.jsonl` }),
    );
    const lines = (await object.Body?.transformToString())?.trim().split("\n") ?? [];
    assert.deepEqual(
      lines.map((line) => (JSON.parse(line) as { line: number; status: string }).line),
      [1, 2, 3],
    );
    const failed = await ledger.get(short);
    assert.equal(failed?.status, "failed");
    assert.match(failed?.reason ?? "", /holds 2 ended lines for 3 lines counted/);
  });

  it("gives back the record of a job whose results could not be written for now, and writes it when delivered again", async () => {
    const jobId = await endedJob("incoming/later.jsonl", 1);
    const unreachable = new S3Client({
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
      endpoint: "http://127.0.0.1:1",
      forcePathStyle: true,
    });

    const first = await invoke(writerHandler(unreachable), [endedRecord(jobId, "7")]);
    const meanwhile = await ledger.get(jobId);
    const again = await invoke(writerHandler(s3), [endedRecord(jobId, "7")]);

    assert.deepEqual(first, { batchItemFailures: [{ itemIdentifier: "7" }] });
    assert.equal(meanwhile?.status, "deciding", "nothing final was written");
    assert.deepEqual(again, { batchItemFailures: [] });
    assert.equal((await ledger.get(jobId))?.status, "complete_with_errors");
    unreachable.destroy();
  });

  it("publishes a failed job's completion event too where the writer is given a publisher (the local stack)", async () => {
    const short = await endedJob("incoming/short-local.jsonl", 1);
    await documents.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { job_id: short, line: 0 },
        UpdateExpression: "SET counts.#lines = :two, counts.ended = :two, counts.dead_lettered = :two",
        ExpressionAttributeNames: { "#lines": "lines" },
        ExpressionAttributeValues: { ":two": 2 },
      }),
    );
    const events: JobCompletedDetail[] = [];
    const writer = new JobResultsWriter({ ledger, s3, publish: async (detail) => void events.push(detail) });

    await assert.rejects(writer.write(short), JobResultsMismatchError);

    assert.deepEqual(
      events.map((event) => [event.job_id, event.status, event.reason, event.results_uri]),
      [
        [
          short,
          "failed",
          "the jobs table holds 1 ended lines for 2 lines counted; results not complete",
          undefined,
        ],
      ],
    );
    assert.ok(JobCompletedDetailSchema.safeParse(events[0]).success);
  });
});
