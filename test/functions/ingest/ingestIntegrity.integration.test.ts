/**
 * What a job reads is what was put, on local parts (127.0.0.1): fauxqs for S3 and SQS, Amazon
 * DynamoDB Local for the outcomes and jobs tables, real SDK clients, the real ingest handler with
 * a jobs table. An object overwritten while its job reads it (a bucket without versioning, as the
 * local one is), and lines whose bytes are not UTF-8.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { jobsTableDefinition } from "../../../core/jobs/index.js";
import { type Outcome, outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { createIngestDeps } from "../../../functions/ingest/createIngestDeps.js";
import { createIngestHandler } from "../../../functions/ingest/createIngestHandler.js";
import type { IngestResult } from "../../../functions/ingest/types.js";
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

/** A valid ticket-routing line; `id: undefined` leaves the id out (ingest then derives one). */
function ticket(id: string | undefined, state: string): string {
  return JSON.stringify({
    ...(id !== undefined ? { id } : {}),
    policy: "ticket-routing",
    state,
    facts: { customer_tier: "pro" },
  });
}

describe("ingest binds a job to what was put (integration)", () => {
  let fauxqs: Fauxqs;
  let dynamo: DynamoDbLocal;
  let s3: S3Client;
  let sqs: SQSClient;
  let dynamodb: DynamoDBClient;

  before(async () => {
    [fauxqs, dynamo] = await Promise.all([
      startFauxqs({ region: REGION }),
      startDynamoDbLocal({ env: process.env }),
    ]);
    const common = { region: REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
    s3 = new S3Client({ ...common, endpoint: fauxqs.endpoint, forcePathStyle: true });
    sqs = new SQSClient({ ...common, endpoint: fauxqs.endpoint, useQueueUrlAsEndpoint: false });
    dynamodb = new DynamoDBClient({ ...common, endpoint: dynamo.endpoint });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  });

  after(async () => {
    s3?.destroy();
    sqs?.destroy();
    dynamodb?.destroy();
    await Promise.all([fauxqs?.stop(), dynamo?.stop()]);
  });

  /** An ingest handler with jobs, on a new queue, outcomes table and jobs table. */
  async function ingestFunction(maxLinesPerInvocation: number, s3Client: S3Client = s3) {
    const name = randomUUID().slice(0, 8);
    const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `work-${name}` }))).QueueUrl ?? "";
    await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(`outcomes-${name}`)));
    await dynamodb.send(new CreateTableCommand(jobsTableDefinition(`jobs-${name}`)));
    const deps = await createIngestDeps(
      {
        workQueueUrl: queueUrl,
        outcomesTable: `outcomes-${name}`,
        jobsTable: `jobs-${name}`,
        policyDir: "policies",
        maxLinesPerInvocation,
        deadlineMarginMs: 10_000,
        maxAttempts: 3,
      },
      {
        s3: s3Client,
        sqs,
        dynamodb,
        logger: new Logger({ serviceName: "ingest", logLevel: "CRITICAL" }),
        metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "ingest" }),
      },
    );
    const jobs = deps.jobs;
    assert.ok(jobs !== undefined, "the handler has a jobs table");
    const handler = createIngestHandler(deps);
    return {
      jobs,
      invoke: async (event: unknown) => {
        const context = createLambdaContext({ functionName: "ingest", region: REGION, timeoutMs: 120_000 });
        return (await captureStdout(() => handler(event, context))).result as IngestResult;
      },
      /** Receives and deletes everything on the queue; returns the work items' ids in order. */
      drain: async () => {
        const ids: string[] = [];
        for (;;) {
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
          );
          if (Messages.length === 0) return ids;
          ids.push(...Messages.map((message) => (JSON.parse(message.Body ?? "{}") as { id: string }).id));
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: Messages.map((message, i) => ({
                Id: String(i),
                ReceiptHandle: message.ReceiptHandle,
              })),
            }),
          );
        }
      },
      outcomes: async () => {
        const output = await DynamoDBDocumentClient.from(dynamodb).send(
          new ScanCommand({ TableName: `outcomes-${name}`, ConsistentRead: true }),
        );
        return (output.Items ?? []) as Outcome[];
      },
    };
  }

  /** Lines `<prefix>-1` … of which line 2 has no id and line 3 is not JSON (at the same place in each version). */
  function version(prefix: string, count: number): string[] {
    return Array.from({ length: count }, (_, index) => {
      const line = index + 1;
      if (line === 2) return ticket(undefined, `${prefix}: a line without an id`);
      if (line === 3) return `{not json ${prefix}`;
      return ticket(`${prefix}-${line}`, `${prefix} line ${line}`);
    });
  }

  /** Reads a first chunk of the object, overwrites it, and resumes: what the resumed read did. */
  async function overwriteWhileReading(key: string, s3Client?: S3Client) {
    const ingest = await ingestFunction(10, s3Client);
    const v1 = version("V1", 30);
    const v2 = version("V2", 40);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: `${v1.join("\n")}\n` }));
    const first = await ingest.invoke({ bucket: BUCKET, key, line: 1, byteOffset: 0 });
    const [checkpoint] = first.pending;
    assert.ok(checkpoint !== undefined, "the first invocation stops at a checkpoint (10 lines)");
    const firstIds = await ingest.drain();

    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: `${v2.join("\n")}\n` }));
    const resumed = await ingest.invoke(first);

    return { ingest, first, checkpoint, firstIds, resumed, laterIds: await ingest.drain(), v2 };
  }

  it("refuses to resume a job whose object was overwritten: nothing of the new object mixed in, the job failed with the reason, counts that add up", async () => {
    const key = "incoming/overwritten.jsonl";

    const { ingest, first, checkpoint, firstIds, resumed, laterIds } = await overwriteWhileReading(key);

    assert.deepEqual(
      firstIds.filter((id) => !id.startsWith("s3-")).sort(),
      ["V1-1", "V1-4", "V1-5", "V1-6", "V1-7", "V1-8", "V1-9", "V1-10"].sort(),
    );
    assert.equal(firstIds.filter((id) => id.startsWith("s3-")).length, 1, "line 2, without an id");
    assert.deepEqual(laterIds, [], "no line of the new object is read into the first one's job");
    assert.equal(typeof checkpoint.etag, "string", "the checkpoint carries the first read's ETag");
    assert.deepEqual(resumed.pending, [], "the job reads no more");
    const [object] = resumed.objects;
    assert.match(
      object?.objectChanged ?? "",
      new RegExp(
        `^s3://${BUCKET}/${key} changed while it was being ingested .*lines before line 11 were ingested .*upload it again under a new key`,
      ),
    );
    assert.equal(object?.sent, 0);
    const jobId = first.objects[0]?.jobId ?? "";
    const job = await ingest.jobs.get(jobId);
    assert.equal(job?.status, "failed");
    assert.equal(job?.reason, object?.objectChanged);
    assert.deepEqual(
      [job?.counts.lines, job?.counts.sent, job?.counts.rejected_at_ingest],
      [10, 9, 1],
      "the job's lines are the 10 read: 9 sent, 1 rejected",
    );
    assert.equal((first.objects[0]?.sent ?? 0) + (first.objects[0]?.rejected ?? 0), 10);
  });

  it("ingests the new object as a job of its own, whose lines are not taken for the first one's", async () => {
    const key = "incoming/overwritten-then-ingested.jsonl";
    const { ingest, first, firstIds, v2 } = await overwriteWhileReading(key);

    let second = await ingest.invoke({ bucket: BUCKET, key, line: 1, byteOffset: 0 });
    const [object] = second.objects;
    for (let invocations = 1; second.pending.length > 0; invocations += 1) {
      assert.ok(invocations < 10, "the checkpoints advance");
      second = await ingest.invoke(second);
      assert.equal(second.objects[0]?.objectChanged, undefined);
    }

    assert.notEqual(object?.jobId, first.objects[0]?.jobId, "a new job, keyed by the new object's ETag");
    const secondIds = await ingest.drain();
    assert.equal(secondIds.length, v2.length - 1);
    assert.deepEqual(
      secondIds.filter((id) => firstIds.includes(id)),
      [],
      "no id of the first object's lines (the line without an id included)",
    );
    const job = await ingest.jobs.get(object?.jobId ?? "");
    assert.equal(job?.status, "deciding");
    assert.deepEqual(
      [
        job?.counts.lines,
        job?.counts.rejected_at_ingest,
        job?.counts.duplicates,
        job?.counts.outcomes.rejected,
      ],
      [40, 1, 0, 1],
      "its bad line is its own rejected outcome, not a duplicate of the first object's",
    );
    assert.equal((await ingest.outcomes()).length, 2, "one rejected outcome per object");
  });

  it("refuses on the ETag it gets back, where a store ignores If-Match", async () => {
    const ignoring = new S3Client({
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
      endpoint: fauxqs.endpoint,
      forcePathStyle: true,
    });
    ignoring.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers?: Record<string, string> };
        if (request.headers !== undefined) delete request.headers["if-match"];
        return next(args);
      },
      { step: "build", name: "dropIfMatch" },
    );
    try {
      const { resumed, laterIds } = await overwriteWhileReading("incoming/if-match-ignored.jsonl", ignoring);

      assert.deepEqual(laterIds, []);
      assert.match(
        resumed.objects[0]?.objectChanged ?? "",
        /changed while it was being ingested \(ETag "\w+" at the first read, "\w+" now\)/,
      );
    } finally {
      ignoring.destroy();
    }
  });

  it("refuses each line that is not UTF-8 with its reason, and decides the others", async () => {
    const ingest = await ingestFunction(50_000);
    const key = "incoming/not-utf8.jsonl";
    const body = Buffer.concat([
      Buffer.from(`${ticket("U-1", "fine")}\n`),
      Buffer.from('{"id": "inv-'),
      Buffer.from([0xff]),
      Buffer.from('", "policy": "ticket-routing", "state": "first state"}\n'),
      Buffer.from('{"id": "inv-'),
      Buffer.from([0xfe]),
      Buffer.from('", "policy": "ticket-routing", "state": "another state"}\n'),
      Buffer.from(`${ticket("U-4", "fine \u00e9\u20ac")}\n`),
    ]);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));

    const result = await ingest.invoke({ bucket: BUCKET, key, line: 1, byteOffset: 0 });

    assert.deepEqual(result.pending, []);
    assert.deepEqual(await ingest.drain(), ["U-1", "U-4"]);
    const outcomes = (await ingest.outcomes()).sort((a, b) => (a.source.line ?? 0) - (b.source.line ?? 0));
    assert.deepEqual(
      outcomes.map((outcome) => [outcome.source.line, outcome.status, outcome.policy]),
      [
        [2, "rejected", "_unparsed"],
        [3, "rejected", "_unparsed"],
      ],
    );
    assert.notEqual(outcomes[0]?.id, outcomes[1]?.id, "each line has an outcome of its own");
    for (const outcome of outcomes) {
      assert.match(
        outcome.reason ?? "",
        new RegExp(`^s3://${BUCKET}/${key} line ${outcome.source.line}: not valid UTF-8`),
      );
    }
    const job = await ingest.jobs.get(result.objects[0]?.jobId ?? "");
    assert.deepEqual(
      [job?.counts.lines, job?.counts.sent, job?.counts.rejected_at_ingest, job?.counts.duplicates],
      [4, 2, 2, 0],
    );
  });
});
