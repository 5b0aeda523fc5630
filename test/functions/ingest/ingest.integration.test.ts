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
import { type Outcome, outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { createIngestDeps } from "../../../functions/ingest/createIngestDeps.js";
import { createIngestHandler } from "../../../functions/ingest/createIngestHandler.js";
import { IngestLineError } from "../../../functions/ingest/errors.js";
import type { IngestResult } from "../../../functions/ingest/types.js";
import { createLambdaContext } from "../../../local/eventSource/createLambdaContext.js";
import {
  type DynamoDbLocal,
  type Fauxqs,
  LOCAL_CREDENTIALS,
  startDynamoDbLocal,
  startFauxqs,
} from "../../../local/index.js";
import { objectCreatedEvent } from "../../../local/ingest/objectCreatedEvent.js";
import { runIngestWorkflow } from "../../../local/ingest/runIngestWorkflow.js";
import { loadStackTemplate } from "../../../local/stack/loadStackTemplate.js";
import { readStackTemplate } from "../../../local/stack/readStackTemplate.js";
import { closedPortUrl } from "../../local/closedPortUrl.js";
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
    [fauxqs, dynamo] = await Promise.all([
      startFauxqs({ region: REGION }),
      startDynamoDbLocal({ env: process.env }),
    ]);
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

  /**
   * A handler on a new queue and table. `table: "missing"` names a table that does not exist;
   * `outcomesClient` replaces the DynamoDB client the function writes outcomes with.
   */
  async function ingestFunction(
    maxLinesPerInvocation = 50_000,
    options: { table?: "missing"; outcomesClient?: DynamoDBClient } = {},
  ) {
    const name = randomUUID().slice(0, 8);
    const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `work-${name}` }))).QueueUrl ?? "";
    await dynamodb.send(new CreateTableCommand(outcomesTableDefinition(`outcomes-${name}`)));
    const deps = await createIngestDeps(
      {
        workQueueUrl: queueUrl,
        outcomesTable: options.table === "missing" ? `no-such-table-${name}` : `outcomes-${name}`,
        policyDir: "policies",
        maxLinesPerInvocation,
        deadlineMarginMs: 10_000,
        maxAttempts: 3,
      },
      {
        s3,
        sqs,
        dynamodb: options.outcomesClient ?? dynamodb,
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

  it("is read to its end by the template's own state machine, one bounded invocation after another", async () => {
    const ingest = await ingestFunction(7);
    const { ingest: plan } = readStackTemplate(await loadStackTemplate());
    const event = objectCreatedEvent(
      { bucket: "ingest", key: "incoming/tickets.jsonl", reason: "PutObject", time: new Date() },
      REGION,
    );

    const result = await runIngestWorkflow(event, {
      stateMachine: plan.stateMachine,
      functionId: plan.function.logicalId,
      invoke: (input) => ingest.invoke(input) as Promise<IngestResult>,
      region: REGION,
    });

    const ids = (await ingest.drain()).map((body) => (JSON.parse(body) as { id: string }).id);
    assert.deepEqual(result, { linesRead: 33, sent: 29, rejected: 4, failed: 0, invocations: 5 });
    assert.equal(new Set(ids).size, 29);
    assert.equal((await ingest.outcomes()).length, 4);
  });

  describe("an object with a poisoned line, U+FFFE / U+FFFF lines, a byte order mark and a __proto__ fact", () => {
    const ticket = (id: string, state: string, facts: Record<string, unknown> = { customer_tier: "pro" }) =>
      `{"id": ${JSON.stringify(id)}, "policy": "ticket-routing", "state": ${JSON.stringify(state)}, "facts": ${JSON.stringify(facts)}}`;
    const hugeKey = "k".repeat(450 * 1024);
    const lines = [
      `\uFEFF${ticket("L-1", "First line, after a byte order mark")}`,
      ticket("L-2", "A state holding U+FFFF \uFFFF here"),
      ticket("L-3", "The poisoned line: an unknown fact key of 450 KB", {
        customer_tier: "pro",
        [hugeKey]: 1,
      }),
      ticket("L-4", "A fine line"),
      ticket("L-5", "A state holding U+FFFE \uFFFE here"),
      `{"id": "L-6", "policy": "ticket-routing", "state": "proto", "facts": {"__proto__": {"customer_tier": "pro"}, "customer_tier": "pro"}}`,
      ...Array.from({ length: 12 }, (_, index) => ticket(`L-${7 + index}`, `Fine line ${7 + index}`)),
    ];
    const key = "incoming/poisoned.jsonl";

    before(async () => {
      await s3.send(new PutObjectCommand({ Bucket: "ingest", Key: key, Body: `${lines.join("\n")}\n` }));
    });

    it("ends every line as a message or a rejected outcome, each bounded and with its reason", async () => {
      const ingest = await ingestFunction();

      const result = (await ingest.invoke(s3Event(key))) as IngestResult;

      assert.deepEqual(result.pending, []);
      assert.deepEqual(result.objects[0]?.failed, []);
      const sent = (await ingest.drain()).map((body) => (JSON.parse(body) as { id: string }).id);
      const outcomes = await ingest.outcomes();
      const byId = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
      assert.deepEqual(
        [...sent, ...byId.keys()].sort(),
        lines.map((_, index) => `L-${index + 1}`).sort(),
        "every line ends once, as a message or an outcome",
      );
      assert.deepEqual([...byId.keys()].sort(), ["L-2", "L-3", "L-5", "L-6"]);
      assert.equal(result.objects[0]?.sent, 14);
      assert.equal(result.objects[0]?.rejected, 4);
      assert.ok(sent.includes("L-1"), "the first line, behind its byte order mark, is sent");
      for (const id of ["L-2", "L-5"]) {
        assert.match(
          byId.get(id)?.reason ?? "",
          new RegExp(
            `^s3://ingest/${key} line ${id.slice(2)}: the work queue refused the message \\(InvalidMessageContents: `,
          ),
        );
      }
      const poisoned = byId.get("L-3");
      assert.equal(poisoned?.status, "rejected");
      assert.match(poisoned?.reason ?? "", /^s3:\/\/ingest\/incoming\/poisoned\.jsonl line 3: facts: kkk/);
      assert.ok(Array.from(poisoned?.reason ?? "").length <= 1000);
      assert.deepEqual(poisoned?.reason_path?.[0], "facts");
      assert.ok(Array.from(String(poisoned?.reason_path?.[1])).length <= 200, "not the whole key");
      assert.match(byId.get("L-6")?.reason ?? "", /"__proto__" is not a fact this policy declares/);
      for (const outcome of outcomes) assert.ok(Buffer.byteLength(JSON.stringify(outcome)) < 64 * 1024);
    });

    it("stops at the checkpoint before a line whose outcome cannot be written for now, listing the lines not ended", async () => {
      const unreachable = new DynamoDBClient({
        region: REGION,
        credentials: LOCAL_CREDENTIALS,
        maxAttempts: 1,
        endpoint: await closedPortUrl(),
      });
      const ingest = await ingestFunction(50_000, { outcomesClient: unreachable });

      try {
        const result = (await ingest.invoke(s3Event(key))) as IngestResult;

        const [object] = result.objects;
        assert.deepEqual(object?.failed.map((line) => [line.line, line.id, line.permanent]).sort(), [
          [2, "L-2", false],
          [3, "L-3", false],
        ]);
        const etag = result.pending[0]?.etag;
        assert.match(etag ?? "", /^"\w+"$/, "bound to the object's ETag at the first read");
        assert.deepEqual(
          result.pending,
          [{ bucket: "ingest", key, etag, line: 1, byteOffset: 0 }],
          "the batch holding line 2 is read again",
        );
        // Line 1 went with line 2's batch; it is sent again from the checkpoint (the duplicate is absorbed).
        const sent = (await ingest.drain()).map((body) => (JSON.parse(body) as { id: string }).id);
        assert.deepEqual(sent, ["L-1"]);
      } finally {
        unreachable.destroy();
      }
    });

    it("fails with where to resume when the table refuses an outcome for good, after sending the lines before it", async () => {
      const ingest = await ingestFunction(50_000, { table: "missing" });
      const clean = `${[ticket("M-1", "one"), ticket("M-2", "two"), "not json", ticket("M-4", "four")].join("\n")}\n`;
      await s3.send(
        new PutObjectCommand({ Bucket: "ingest", Key: "incoming/missing-table.jsonl", Body: clean }),
      );

      await assert.rejects(ingest.invoke(s3Event("incoming/missing-table.jsonl")), (error: unknown) => {
        assert.ok(error instanceof IngestLineError, String(error));
        assert.deepEqual([error.checkpoint.line, error.checkpoint.key], [3, "incoming/missing-table.jsonl"]);
        assert.match(
          error.message,
          /line 3: its rejected outcome could not be written .*ResourceNotFoundException.*resume there/,
        );
        return true;
      });
      const sent = (await ingest.drain()).map((body) => (JSON.parse(body) as { id: string }).id);
      assert.deepEqual(sent.sort(), ["M-1", "M-2"]);
    });
  });
});
