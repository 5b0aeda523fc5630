/**
 * The ingest handler on local parts (127.0.0.1): fauxqs for S3 and SQS, Amazon DynamoDB Local for
 * the outcomes, real SDK clients. The objects are the sample JSONL files of events/work-items.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
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
import { createIngestDeps } from "../../../functions/ingest/createIngestDeps.js";
import { createIngestHandler } from "../../../functions/ingest/createIngestHandler.js";
import type { IngestResult } from "../../../functions/ingest/types.js";
import { type Outcome, outcomesTableDefinition } from "../../../functions/outcomes/index.js";
import { createLambdaContext } from "../../../local/createLambdaContext.js";
import {
  type DynamoDbLocal,
  type Fauxqs,
  LOCAL_CREDENTIALS,
  startDynamoDbLocal,
  startFauxqs,
} from "../../../local/index.js";
import { captureStdout } from "../support/captureStdout.js";

const REGION = "us-east-1";
const tickets = readFileSync("events/work-items/tickets.jsonl", "utf8");
const documents = readFileSync("events/work-items/documents.jsonl", "utf8");

describe("the ingest handler on fauxqs and DynamoDB Local (integration)", () => {
  let fauxqs: Fauxqs;
  let dynamo: DynamoDbLocal;
  let s3: S3Client;
  let sqs: SQSClient;
  let dynamodb: DynamoDBClient;

  before(async () => {
    [fauxqs, dynamo] = await Promise.all([startFauxqs({ region: REGION }), startDynamoDbLocal()]);
    const common = { region: REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 };
    s3 = new S3Client({ ...common, endpoint: fauxqs.endpoint, forcePathStyle: true });
    sqs = new SQSClient({ ...common, endpoint: fauxqs.endpoint, useQueueUrlAsEndpoint: false });
    dynamodb = new DynamoDBClient({ ...common, endpoint: dynamo.endpoint });
    await s3.send(new CreateBucketCommand({ Bucket: "ingest" }));
    await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: "incoming/tickets.jsonl", Body: tickets }));
    await s3.send(
      new PutObjectCommand({ Bucket: "ingest", Key: "incoming/documents 1.jsonl", Body: documents }),
    );
  });

  after(async () => {
    s3?.destroy();
    sqs?.destroy();
    dynamodb?.destroy();
    await Promise.all([fauxqs?.stop(), dynamo?.stop()]);
  });

  /** A handler on a new queue and table. */
  async function ingestFunction(maxLinesPerInvocation = 50_000) {
    const name = randomUUID().slice(0, 8);
    const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `work-${name}` }))).QueueUrl ?? "";
    await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(`outcomes-${name}`)));
    const deps = await createIngestDeps(
      {
        workQueueUrl: queueUrl,
        outcomesTable: `outcomes-${name}`,
        policyDir: "policies",
        maxLinesPerInvocation,
        deadlineMarginMs: 10_000,
        maxAttempts: 3,
      },
      {
        s3,
        sqs,
        dynamodb,
        logger: new Logger({ serviceName: "ingest", logLevel: "ERROR" }),
        metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "ingest" }),
      },
    );
    const handler = createIngestHandler(deps);
    return {
      invoke: async (event: unknown) => {
        const context = createLambdaContext({ functionName: "ingest", region: REGION, timeoutMs: 120_000 });
        return (await captureStdout(() => handler(event, context))).result;
      },
      /** Receives and deletes everything on the queue; returns the bodies. */
      drain: async () => {
        const bodies: string[] = [];
        for (;;) {
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
          );
          if (Messages.length === 0) return bodies;
          bodies.push(...Messages.map((message) => message.Body ?? ""));
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
        const documents = DynamoDBDocumentClient.from(dynamodb);
        const output = await documents.send(
          new ScanCommand({ TableName: `outcomes-${name}`, ConsistentRead: true }),
        );
        return (output.Items ?? []) as Outcome[];
      },
    };
  }

  /** The sample S3 put event (events/s3) for this key in bucket "ingest", URL-encoded as S3 sends it. */
  function s3Event(key: string) {
    const event = JSON.parse(readFileSync("events/s3/put-object.json", "utf8"));
    const s3Part = event.Records[0].s3;
    s3Part.bucket.name = "ingest";
    s3Part.object.key = encodeURIComponent(key).replaceAll("%20", "+").replaceAll("%2F", "/");
    delete s3Part.object.versionId;
    return event;
  }

  it("sends one message per valid line and records a rejected outcome per bad line, naming the object and line", async () => {
    const ingest = await ingestFunction();

    const result = (await ingest.invoke(s3Event("incoming/tickets.jsonl"))) as IngestResult;

    assert.deepEqual(result.pending, []);
    assert.equal(result.objects[0]?.sent, 29);
    assert.equal(result.objects[0]?.rejected, 4);
    const bodies = await ingest.drain();
    assert.equal(bodies.length, 29);
    // The raw state text passes unchanged (integer-like keys, 2.0).
    assert.ok(bodies.some((body) => body.includes('"2024": {"seats": 2.0}, "1": "first contact"')));
    const outcomes = await ingest.outcomes();
    assert.equal(outcomes.length, 4);
    assert.ok(outcomes.every((outcome) => outcome.status === "rejected" && outcome.source.kind === "s3"));
    const truncated = outcomes.find((outcome) => outcome.source.line === 32);
    assert.match(truncated?.reason ?? "", /^s3:\/\/ingest\/incoming\/tickets\.jsonl line 32: not valid JSON/);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.source.line).sort((a = 0, b = 0) => a - b),
      [30, 31, 32, 33],
    );
  });

  it("gives lines without an id the same deterministic id each time, and a second ingest no second outcome", async () => {
    const ingest = await ingestFunction();
    const event = s3Event("incoming/documents 1.jsonl");

    await ingest.invoke(event);
    const first = await ingest.drain();
    const outcomesAfterFirst = await ingest.outcomes();
    await ingest.invoke(event);
    const second = await ingest.drain();

    const ids = (bodies: string[]) => bodies.map((body) => (JSON.parse(body) as { id: string }).id).sort();
    assert.equal(first.length, 22);
    assert.deepEqual(ids(second), ids(first));
    assert.equal(ids(first).filter((id) => id.startsWith("s3-")).length, 2);
    assert.deepEqual(await ingest.outcomes(), outcomesAfterFirst);
    assert.equal(outcomesAfterFirst.length, 2);
  });

  it("continues a large object from checkpoints without sending any line twice", async () => {
    const ingest = await ingestFunction(7);
    let input: unknown = { bucket: "ingest", key: "incoming/tickets.jsonl", line: 1, byteOffset: 0 };
    let invocations = 0;

    for (;;) {
      const result = (await ingest.invoke(input)) as IngestResult;
      invocations += 1;
      if (result.pending.length === 0) break;
      input = result;
      assert.ok(invocations < 20, "the checkpoints advance");
    }

    const bodies = await ingest.drain();
    const ids = bodies.map((body) => (JSON.parse(body) as { id: string }).id);
    assert.equal(invocations, 5, "33 lines, 7 per invocation");
    assert.equal(ids.length, 29);
    assert.equal(new Set(ids).size, 29);
    assert.equal((await ingest.outcomes()).length, 4);
  });
});
