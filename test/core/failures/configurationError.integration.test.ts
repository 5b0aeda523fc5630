/**
 * A mistyped ENDPOINT_NAME on the real local stack (DynamoDB Local, fauxqs, the adapter on the
 * generated model, the SageMaker gateway, the event source poller running the real decide
 * handler): the items stay undecided with a visible reason — the error log line, the failure
 * record, `decisions outcomes show`, `decisions dlq list` — and once the name is fixed and the
 * dead letters are redriven (without --to), the same items are decided; no `rejected` outcome in
 * between.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { GetQueueAttributesCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { createDlqCommand } from "../../../cli/commands/dlqCommand.js";
import { createOutcomesCommand } from "../../../cli/commands/outcomesCommand.js";
import { type FailureRecord, isFailureRecordKey } from "../../../contract/failures/FailureRecordSchema.js";
import { FailureRecordStore } from "../../../core/failures/index.js";
import type { SqsBatchHandler } from "../../../local/eventSource/SqsEventSourcePoller.js";
import { createLocalDecideHandler } from "../../../local/stack/createLocalDecideHandler.js";
import { type LocalStack, startLocalStack } from "../../../local/stack/startLocalStack.js";

const ITEMS = readFileSync("events/work-items/tickets.jsonl", "utf8").split("\n").filter(Boolean).slice(0, 3);
const IDS = ITEMS.map((line) => (JSON.parse(line) as { id: string }).id);
const MAX_RECEIVES = 3;
/** A guard only: every wait below ends as soon as what it waits for is there. */
const WAIT_LIMIT_MS = 240_000;

/** Collects what a CLI command writes. */
function output() {
  const text = { stdout: "", stderr: "" };
  return {
    text,
    streams: {
      stdout: {
        write: (chunk: string) => {
          text.stdout += chunk;
          return true;
        },
      },
      stderr: {
        write: (chunk: string) => {
          text.stderr += chunk;
          return true;
        },
      },
    },
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const limit = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > limit) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("a mistyped endpoint name (integration, real local stack)", () => {
  let stack: LocalStack;
  let useFixed = false;
  const errorLogs: Record<string, unknown>[] = [];
  const stderrWrite = process.stderr.write;

  before(async () => {
    // The function's warn and error lines go to stderr (Powertools' console); they are read here.
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const lines = String(chunk).split("\n");
      const logs = lines.filter((line) => line.startsWith('{"level":"ERROR"'));
      for (const line of logs) errorLogs.push(JSON.parse(line));
      // The function's error lines are read here, not printed into the test report.
      if (logs.length > 0 && logs.length === lines.filter(Boolean).length) return true;
      return (stderrWrite as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
    stack = await startLocalStack({
      env: process.env,
      adapterThreads: 2,
      maxReceiveCount: MAX_RECEIVES,
      visibilityTimeoutSeconds: 1,
      poller: { batchSize: 10, maximumBatchingWindowMs: 200 },
      createHandler: async (context) => {
        const typo = await createLocalDecideHandler(
          { ...context, endpointName: "decisions-typo" },
          { logLevel: "ERROR" },
        );
        const fixed = await createLocalDecideHandler(context, { logLevel: "ERROR" });
        const handler: SqsBatchHandler = (event, lambdaContext) =>
          (useFixed ? fixed : typo)(event, lambdaContext);
        return handler;
      },
    });
  });

  after(async () => {
    process.stderr.write = stderrWrite;
    await stack?.stop();
  });

  it("leaves the items undecided with a visible reason, and decides them once the name is fixed", async () => {
    const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
    const rows = async () =>
      (await documents.send(new ScanCommand({ TableName: stack.table, ConsistentRead: true }))).Items ?? [];
    const outcomes = async () => (await rows()).filter((row) => !isFailureRecordKey(row.policy));
    const failures = new FailureRecordStore({ client: documents, tableName: stack.table });
    const dlqDepth = async () =>
      Number(
        (
          await stack.clients.sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: stack.dlqUrl,
              AttributeNames: ["ApproximateNumberOfMessages"],
            }),
          )
        ).Attributes?.ApproximateNumberOfMessages ?? 0,
      );

    await stack.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: stack.queueUrl,
        Entries: ITEMS.map((body, index) => ({ Id: `e${index}`, MessageBody: body })),
      }),
    );

    // Undecided, with a reason: each item's failure record, then the DLQ after maxReceiveCount.
    const records = await waitFor("a failure record of every item", async () => {
      const found = await Promise.all(IDS.map((id) => failures.byItem("ticket-routing", id)));
      return found.every((record) => record !== undefined) ? (found as FailureRecord[]) : undefined;
    });
    await waitFor("every message in the DLQ", async () =>
      (await dlqDepth()) === ITEMS.length ? true : undefined,
    );

    assert.deepEqual(await outcomes(), [], "nothing written: no rejected outcome");
    for (const record of records) {
      assert.equal(record.failure_class, "configuration");
      assert.equal(record.error, "EndpointConfigurationError");
      assert.match(record.reason, /decisions-typo ValidationError \(HTTP 400\): .*decisions-typo.*not found/);
      assert.ok(record.attempts >= 1 && record.failures >= 1);
    }
    const logged = errorLogs.filter((log) => log.error === "EndpointConfigurationError");
    assert.deepEqual([...new Set(logged.map((log) => log.itemId))].sort(), [...IDS].sort());
    for (const log of logged) {
      assert.equal(log.resource, "decisions-typo");
      assert.match(String(log.message), /To fix: check that ENDPOINT_NAME \("decisions-typo"\)/);
      assert.equal(typeof log.messageId, "string");
    }

    const show = output();
    const showCode = await createOutcomesCommand(show.streams).run([
      "show",
      IDS[0] ?? "",
      "--policy",
      "ticket-routing",
      "--table",
      stack.table,
      "--endpoint-url",
      stack.dynamodbEndpoint,
      "--region",
      stack.region,
    ]);
    assert.equal(showCode, 1, "no outcome yet");
    const shown = JSON.parse(show.text.stdout) as { outcome: null; last_failure: FailureRecord };
    assert.equal(shown.outcome, null);
    assert.equal(shown.last_failure.item_id, IDS[0]);
    assert.match(show.text.stderr, /no outcome of ticket-routing\/TCK-10400 yet; .*decisions-typo/);

    const list = output();
    const listArgs = [
      "--queue-url",
      stack.dlqUrl,
      "--endpoint-url",
      stack.sqsEndpoint,
      "--region",
      stack.region,
    ];
    const listCode = await createDlqCommand(list.streams).run([
      "list",
      ...listArgs,
      "--table",
      stack.table,
      "--dynamodb-endpoint-url",
      stack.dynamodbEndpoint,
    ]);
    assert.equal(listCode, 0, list.text.stderr);
    assert.doesNotMatch(list.text.stdout, /none recorded/);
    assert.equal(
      list.text.stdout.match(/reason: the decision endpoint cannot be called as configured/g)?.length,
      3,
    );
    assert.equal(
      list.text.stdout.match(/last failure: .* EndpointConfigurationError \(configuration\)/g)?.length,
      3,
    );

    // The fix: the right endpoint name; the dead letters go back to the work queue they came from.
    useFixed = true;
    const redrive = output();
    const redriveCode = await createDlqCommand(redrive.streams).run(["redrive", ...listArgs]);
    assert.equal(redriveCode, 0, redrive.text.stderr);
    assert.match(redrive.text.stdout, new RegExp(`moved 3 message\\(s\\) from .* to ${stack.queueUrl}`));

    const decided = await waitFor("an outcome of every item", async () => {
      const found = await outcomes();
      return found.length === ITEMS.length ? found : undefined;
    });
    assert.deepEqual(decided.map((row) => row.id).sort(), [...IDS].sort());
    for (const row of decided) assert.notEqual(row.status, "rejected", JSON.stringify(row));
  });
});
