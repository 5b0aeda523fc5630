import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { SingleBar } from "cli-progress";
import { packageRoot } from "../adapter/models/packageRoot.js";
import { isFailureRecordKey } from "../contract/failures/FailureRecordSchema.js";
import { isShadowRecordKey } from "../contract/outcome/ShadowRecordSchema.js";
import type { Outcome } from "../functions/outcomes/index.js";
import { createLocalDecideHandler, type FunctionLogLevel } from "./createLocalDecideHandler.js";
import { createLocalIngestHandler } from "./createLocalIngestHandler.js";
import { type DeadLetter, formatDemoSummary } from "./formatDemoSummary.js";
import { DEMO_MODEL_NOTICE } from "./prepareStackModel.js";
import { queueDepth } from "./queueDepth.js";
import { type DemoMessage, type DemoObject, readDemoInputs } from "./readDemoInputs.js";
import { runIngestWorkflow } from "./runIngestWorkflow.js";
import { s3PutEvent } from "./s3PutEvent.js";
import { type LocalStack, type StartLocalStackOptions, startLocalStack } from "./startLocalStack.js";

/** Where the demo writes: the summary to stdout, notices and progress to stderr. */
export interface DemoOutput {
  stdout: { write(text: string): unknown };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** A GGUF to serve. Default: the generated demo model (with a notice that its weights are random). */
  model?: string;
  /** The sample events. Default `<repo>/events`. */
  eventsDir?: string;
  /** The policies. Default `<repo>/policies`. */
  policyDir?: string;
  /** How long to wait for every item to be decided, rejected or dead-lettered. Default 600000 ms. */
  timeoutMs?: number;
  /** The decide function's log level. Default `"SILENT"`. */
  functionLogLevel?: FunctionLogLevel;
  /** Stack settings (ports, threads, java, …). */
  stack?: Omit<StartLocalStackOptions, "createHandler" | "model" | "log">;
  /** Default: the process's stdout and stderr. */
  output?: DemoOutput;
}

/** What a demo run found. */
export interface DemoResult {
  /** 0: every item ended decided, rejected or dead-lettered; 1: some did not within the timeout. */
  exitCode: number;
  sent: number;
  outcomes: Outcome[];
  deadLetters: DeadLetter[];
  /** Milliseconds to start the stack, and from the first send until every item had ended. */
  startupMs: number;
  pipelineMs: number;
}

const POLL_MS = 250;

/**
 * `npm start`: the whole pipeline on this machine. Starts the local stack, sends the sample work
 * items and EventBridge events from `events/` to the work queue (the batch JSONL through S3 ingest),
 * shows progress while the decide function works through them, waits until the queue is empty —
 * every item decided, rejected or dead-lettered — prints the summary, and stops everything.
 *
 * @throws LocalPartError when a part cannot start (after stopping what had started).
 */
export async function runDemo(options: RunDemoOptions = {}): Promise<DemoResult> {
  const output = options.output ?? { stdout: process.stdout, stderr: process.stderr };
  const note = (line: string): void => {
    output.stderr.write(`${line}\n`);
  };
  const begin = performance.now();
  const inputs = await readDemoInputs(options.eventsDir ?? join(packageRoot(), "events"));
  const stack = await startLocalStack({
    ...options.stack,
    model: options.model,
    log: note,
    createHandler: (context) =>
      createLocalDecideHandler(context, { policyDir: options.policyDir, logLevel: options.functionLogLevel }),
  });
  try {
    if (stack.model.generated) note(DEMO_MODEL_NOTICE);
    const startupMs = Math.round(performance.now() - begin);
    note(`local stack ready in ${(startupMs / 1000).toFixed(1)} s`);
    const sendStarted = performance.now();
    const failed = await sendAll(stack.clients.sqs, stack.queueUrl, inputs.messages);
    for (const failure of failed) note(`could not send ${failure.origin}: ${failure.reason}`);
    let sent = inputs.messages.length - failed.length;
    let queued = sent;
    note(`sent ${sent} work items and events to ${stack.queueUrl}`);
    const ingested = await ingestObjects(stack, inputs.objects, options);
    for (const object of ingested) {
      note(
        `ingest read s3://${stack.bucket}/${object.key}: ${object.sent} lines queued, ${object.rejected} rejected`,
      );
      sent += object.sent + object.rejected;
      queued += object.sent;
    }
    const ingestFailures = ingested.reduce((total, object) => total + object.failed, 0);
    const finished = await waitUntilDrained(stack, queued, options.timeoutMs ?? 600_000, output.stderr);
    const pipelineMs = Math.round(performance.now() - sendStarted);
    const outcomes = await scanOutcomes(stack);
    const deadLetters = await readDeadLetters(stack.clients.sqs, stack.dlqUrl);
    const model = stack.model.generated
      ? `generated ${stack.model.kind} (random weights: answers are meaningless)`
      : stack.model.path;
    output.stdout.write(formatDemoSummary(outcomes, { sent, deadLetters, elapsedMs: pipelineMs, model }));
    if (!finished) note(`not every item ended within ${(options.timeoutMs ?? 600_000) / 1000} s`);
    return {
      exitCode: finished && failed.length === 0 && ingestFailures === 0 ? 0 : 1,
      sent,
      outcomes,
      deadLetters,
      startupMs,
      pipelineMs,
    };
  } finally {
    await stack.stop();
    note("local stack stopped");
  }
}

/** What the ingest function did with one object, over all its invocations. */
interface IngestedObject {
  key: string;
  sent: number;
  rejected: number;
  failed: number;
}

/**
 * Puts each JSONL object into the bucket and runs the ingest workflow on its S3 notification, as
 * S3 would: the ingest function, then again on each result's `pending` checkpoints until none is
 * left (the CDK app's Step Functions loop, {@link runIngestWorkflow}).
 */
async function ingestObjects(
  stack: LocalStack,
  objects: readonly DemoObject[],
  options: RunDemoOptions,
): Promise<IngestedObject[]> {
  if (objects.length === 0) return [];
  const ingest = await createLocalIngestHandler(
    {
      region: stack.region,
      table: stack.table,
      queueUrl: stack.queueUrl,
      endpoints: {
        sqs: stack.sqsEndpoint,
        s3: stack.s3Endpoint,
        dynamodb: stack.dynamodbEndpoint,
        sagemakerRuntime: stack.gatewayUrl,
      },
    },
    { policyDir: options.policyDir, logLevel: options.functionLogLevel },
  );
  try {
    const results: IngestedObject[] = [];
    for (const object of objects) {
      const put = await stack.clients.s3.send(
        new PutObjectCommand({
          Bucket: stack.bucket,
          Key: object.key,
          Body: object.body,
          ContentType: "application/x-ndjson",
        }),
      );
      const event = s3PutEvent({
        bucket: stack.bucket,
        key: object.key,
        size: Buffer.byteLength(object.body),
        eTag: put.ETag?.replaceAll('"', ""),
        versionId: put.VersionId,
        region: stack.region,
      });
      const done = await runIngestWorkflow(event, {
        invoke: ingest.invoke,
        region: stack.region,
        timeoutMs: 60_000,
      });
      const total: IngestedObject = {
        key: object.key,
        sent: done.sent,
        rejected: done.rejected,
        failed: done.failed,
      };
      results.push(total);
    }
    return results;
  } finally {
    ingest.close();
  }
}

/** SendMessageBatch, 10 at a time; returns the entries that failed, with the reason SQS gave. */
async function sendAll(
  sqs: SQSClient,
  queueUrl: string,
  messages: readonly DemoMessage[],
): Promise<{ origin: string; reason: string }[]> {
  const failed: { origin: string; reason: string }[] = [];
  for (let start = 0; start < messages.length; start += 10) {
    const chunk = messages.slice(start, start + 10);
    const answer = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: message.body })),
      }),
    );
    for (const failure of answer.Failed ?? []) {
      failed.push({
        origin: chunk[Number(failure.Id)]?.origin ?? "?",
        reason: failure.Message ?? failure.Code ?? "?",
      });
    }
  }
  return failed;
}

/**
 * Waits until the work queue holds nothing (visible, in flight or delayed) and no batch is running:
 * every message was deleted after its outcome was written, or moved to the DLQ. Progress on stderr:
 * a bar on a terminal, a plain line every 2 s otherwise.
 * @returns false when the timeout passed first.
 */
async function waitUntilDrained(
  stack: LocalStack,
  total: number,
  timeoutMs: number,
  stderr: DemoOutput["stderr"],
): Promise<boolean> {
  const bar = new SingleBar({
    stream: stderr,
    format: "deciding [{bar}] {value}/{total} messages | {dead} dead-lettered | {duration}s",
    noTTYOutput: stderr.isTTY !== true,
    notTTYSchedule: 2000,
    hideCursor: stderr.isTTY === true,
  });
  bar.start(total, 0, { dead: 0 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const [work, dead] = await Promise.all([
        queueDepth(stack.clients.sqs, stack.queueUrl),
        queueDepth(stack.clients.sqs, stack.dlqUrl),
      ]);
      bar.update(Math.min(total, stack.poller.stats().succeeded + dead), { dead });
      if (work === 0 && stack.poller.stats().inFlightBatches === 0) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    bar.stop();
  }
}

async function scanOutcomes(stack: LocalStack): Promise<Outcome[]> {
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const outcomes: Outcome[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new ScanCommand({ TableName: stack.table, ExclusiveStartKey: start }));
    // Failure and shadow records share the table under their own key prefixes: they are no outcomes.
    outcomes.push(
      ...((page.Items ?? []).filter(
        (item) => !isFailureRecordKey(item.policy) && !isShadowRecordKey(item.policy),
      ) as Outcome[]),
    );
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return outcomes;
}

async function readDeadLetters(sqs: SQSClient, dlqUrl: string): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = [];
  for (;;) {
    const answer = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 60,
        MessageSystemAttributeNames: ["ApproximateReceiveCount"],
      }),
    );
    const received = answer.Messages ?? [];
    if (received.length === 0) return letters;
    for (const message of received) {
      letters.push({
        messageId: message.MessageId ?? "?",
        preview: (message.Body ?? "").replace(/\s+/g, " ").slice(0, 80),
        receiveCount: message.Attributes?.ApproximateReceiveCount ?? "?",
      });
    }
  }
}
