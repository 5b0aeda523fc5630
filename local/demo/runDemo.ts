import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { SingleBar } from "cli-progress";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import type { JobCompletedDetail } from "../../contract/index.js";
import { LANES } from "../../contract/lanes/lanes.js";
import type { Outcome } from "../../core/outcomes/index.js";
import { scanAllOutcomes } from "../../core/outcomes/scanAllOutcomes.js";
import { queueDepth } from "../eventSource/queueDepth.js";
import type { IngestedObjectReport } from "../ingest/IngestTrigger.js";
import { createLocalDecideHandler, type FunctionLogLevel } from "../stack/createLocalDecideHandler.js";
import { DEMO_MODEL_NOTICE } from "../stack/prepareStackModel.js";
import { type LocalStack, type StartLocalStackOptions, startLocalStack } from "../stack/startLocalStack.js";
import { buildDemoBatch } from "./buildDemoBatch.js";
import { type DeadLetter, formatDemoSummary } from "./formatDemoSummary.js";
import { formatLaneSummary, type LaneDemoReport } from "./formatLaneSummary.js";
import { type DemoMessage, type DemoObject, readDemoInputs } from "./readDemoInputs.js";
import { type IncidentTiming, probeIncidents, timeIncidents } from "./timeIncidents.js";

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
  /**
   * Lines of the batch file: the sample batch (`work-items/documents.jsonl`) repeated to this many
   * lines, under ids of their own ({@link buildDemoBatch}). Default 300.
   */
  batchLines?: number;
  /** Incidents sent alone, and again while the batch job drains (at most 10). Default 6. */
  incidents?: number;
  /** The decide function's log level. Default `"SILENT"`. */
  functionLogLevel?: FunctionLogLevel;
  /**
   * The environment DynamoDB Local and the adapter start from: the entry point's own environment.
   * Required ({@link StartLocalStackOptions.env}).
   */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Stack settings (ports, threads, java, …). */
  stack?: Omit<StartLocalStackOptions, "createHandler" | "model" | "log" | "ingest" | "jobs" | "env">;
  /** Default: the process's stdout and stderr. */
  output?: DemoOutput;
  /**
   * Runs on the running stack once the demo has ended and its summary is written, before the stack
   * stops (the rehearsal drives its own workload there: `decisions rehearse`). What it throws is
   * thrown once the stack has stopped. Default: nothing.
   */
  beforeStop?: (stack: LocalStack) => Promise<void>;
}

/** What a demo run found. */
export interface DemoResult {
  /**
   * 0: every item ended decided, rejected or dead-lettered, and the batch job completed; 1: some
   * did not within the timeout.
   */
  exitCode: number;
  sent: number;
  outcomes: Outcome[];
  deadLetters: DeadLetter[];
  /** The incidents alone and during the batch job's drain, and the job's end (absent without a batch file). */
  lanes: LaneDemoReport | undefined;
  /** Milliseconds to start the stack, and from the first send until every item had ended. */
  startupMs: number;
  pipelineMs: number;
}

const POLL_MS = 250;
/** How often the progress is written as a plain line when stderr is no terminal. */
const PLAIN_PROGRESS_MS = 30_000;

/**
 * `npm start`: the whole pipeline on this machine, both lanes. Starts the local stack, sends the
 * sample work items and EventBridge events from `events/` to the interactive lane's queue and waits
 * until they have ended; then times a few incidents alone; then puts the batch file (the sample
 * batch repeated to `batchLines` lines) into the bucket, where ingest makes it a job whose lines
 * travel in the bulk lane, and once its lines are being decided times as many incidents again —
 * they overtake the job. It waits until the job has completed and both lanes are empty (every item
 * decided, rejected or dead-lettered), prints the summary with the lanes' section, and stops
 * everything.
 *
 * @throws LocalPartError when a part cannot start (after stopping what had started).
 */
export async function runDemo(options: RunDemoOptions): Promise<DemoResult> {
  const output = options.output ?? { stdout: process.stdout, stderr: process.stderr };
  const note = (line: string): void => {
    output.stderr.write(`${line}\n`);
  };
  const begin = performance.now();
  const timeoutMs = options.timeoutMs ?? 600_000;
  const inputs = await readDemoInputs(options.eventsDir ?? join(packageRoot(), "events"));
  const ingested: IngestedObjectReport[] = [];
  const completed: JobCompletedDetail[] = [];
  // The parts' own "ready" lines are kept back while the stack starts and told as one line once it
  // is up (all of them, should the start fail); what the stack says later is told as it comes.
  let starting: string[] | undefined = [];
  const stackLog = (line: string): void => {
    if (starting === undefined) note(line);
    else starting.push(line);
  };
  note(
    "starting the local stack: DynamoDB Local, fauxqs, the adapter, the SageMaker gateway, the lanes' pollers…",
  );
  const stack = await startLocalStack({
    ...options.stack,
    env: options.env,
    model: options.model,
    log: stackLog,
    createHandler: (context) =>
      createLocalDecideHandler(context, {
        policyDir: options.policyDir,
        logLevel: options.functionLogLevel,
        laneGroups: true,
      }),
    ingest: {
      policyDir: options.policyDir,
      logLevel: options.functionLogLevel,
      onIngested: (report) => ingested.push(report),
    },
    jobs: { onCompleted: (detail) => completed.push(detail) },
  }).catch((error: unknown) => {
    for (const line of starting ?? []) note(line);
    starting = undefined;
    throw error;
  });
  starting = undefined;
  try {
    if (stack.model.generated) note(DEMO_MODEL_NOTICE);
    const startupMs = Math.round(performance.now() - begin);
    const parts = Object.entries(stack.startupMs)
      .filter(([name]) => name !== "total")
      .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`);
    note(`local stack ready in ${(startupMs / 1000).toFixed(1)} s (${parts.join(", ")})`);
    const deadline = Date.now() + timeoutMs;
    const sendStarted = performance.now();
    const interactiveUrl = stack.lanes.interactive.queueUrl;
    const failed = await sendAll(stack.clients.sqs, interactiveUrl, inputs.messages);
    for (const failure of failed) note(`could not send ${failure.origin}: ${failure.reason}`);
    let sent = inputs.messages.length - failed.length;
    let queued = sent;
    note(`sent ${sent} work items and events to the interactive lane (${interactiveUrl})`);
    let finished = await waitUntilDrained(stack, queued, deadline, output.stderr);
    const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
    const count = Math.min(10, options.incidents ?? 6);
    const timeProbes = async (suffix: string): Promise<IncidentTiming[]> => {
      const items = probeIncidents(inputs.messages, count, suffix);
      if (items.length === 0) return [];
      sent += items.length;
      queued += items.length;
      return timeIncidents({
        sqs: stack.clients.sqs,
        documents,
        queueUrl: interactiveUrl,
        table: stack.table,
        items,
        timeoutMs: Math.max(0, deadline - Date.now()),
      });
    };
    let lanes: LaneDemoReport | undefined;
    let ingestFailures = 0;
    // With IAM enforced (the rehearsal), a refused call means items that cannot be decided: the
    // lanes part would wait out the timeout for incidents that end in the DLQ.
    const refused = stack.iam?.ledger.snapshot().denied.length ?? 0;
    if (refused > 0)
      note(
        `IAM refused ${refused} kind(s) of call: the lanes part (incidents timed beside a batch job) is skipped`,
      );
    if (finished && inputs.objects.length > 0 && refused === 0) {
      const alone = await timeProbes("alone");
      note(`${alone.length} incidents sent alone: ${describeTimes(alone)}`);
      const objects = inputs.objects.map((object) => buildDemoBatch(object, options.batchLines ?? 300));
      for (const object of objects) await putObject(stack, object);
      note(
        `put ${objects.map((object) => `s3://${stack.bucket}/${object.key} (${object.lines} lines)`).join(", ")}: ingest makes each a job in the bulk lane`,
      );
      // The incidents go once every line is queued and the job's first lines have ended.
      const draining = await waitFor(
        () => ingested.length >= objects.length && stack.lanes.bulk.poller.stats().succeeded > 0,
        deadline,
      );
      for (const report of ingested) {
        if (report.result === undefined) {
          ingestFailures += 1;
          note(`ingest of s3://${report.bucket}/${report.key} failed: ${String(report.error)}`);
          continue;
        }
        sent += report.result.sent + report.result.rejected;
        queued += report.result.sent;
        ingestFailures += report.result.failed;
      }
      const during = draining ? await timeProbes("during") : [];
      note(`${during.length} incidents sent while the job drains: ${describeTimes(during)}`);
      finished =
        draining &&
        (await waitFor(() => completed.length >= objects.length, deadline)) &&
        (await waitUntilDrained(stack, queued, deadline, output.stderr));
      const job = completed.find((detail) => detail.source === `s3://${stack.bucket}/${objects[0]?.key}`);
      lanes = { alone, during, batchLines: objects[0]?.lines ?? 0, job };
    }
    const pipelineMs = Math.round(performance.now() - sendStarted);
    const outcomes = await scanOutcomes(stack);
    const deadLetters: DeadLetter[] = [];
    for (const lane of LANES)
      deadLetters.push(...(await readDeadLetters(stack.clients.sqs, stack.lanes[lane].dlqUrl)));
    const model = stack.model.generated
      ? `generated ${stack.model.kind} (random weights: answers are meaningless)`
      : stack.model.path;
    output.stdout.write(formatDemoSummary(outcomes, { sent, deadLetters, elapsedMs: pipelineMs, model }));
    if (lanes !== undefined) output.stdout.write(`\n${formatLaneSummary(lanes)}`);
    if (!finished) note(`not every item ended within ${timeoutMs / 1000} s`);
    await options.beforeStop?.(stack);
    return {
      exitCode: finished && failed.length === 0 && ingestFailures === 0 ? 0 : 1,
      sent,
      outcomes,
      deadLetters,
      lanes,
      startupMs,
      pipelineMs,
    };
  } finally {
    await stack.stop();
    note("local stack stopped");
  }
}

function describeTimes(timings: readonly IncidentTiming[]): string {
  const times = timings.map((timing) =>
    timing.decidedAt === undefined
      ? "no outcome"
      : `${((timing.decidedAt - timing.sentAt) / 1000).toFixed(2)} s`,
  );
  return times.length === 0 ? "none (no incident in the samples)" : `send→outcome ${times.join(", ")}`;
}

/** Puts a JSONL object under the ingest prefix: the stack's trigger runs the ingest workflow on it. */
async function putObject(stack: LocalStack, object: DemoObject): Promise<void> {
  await stack.clients.s3.send(
    new PutObjectCommand({
      Bucket: stack.bucket,
      Key: object.key,
      Body: object.body,
      ContentType: "application/x-ndjson",
    }),
  );
}

/** Polls `done` until it holds (true) or the deadline passes (false). */
async function waitFor(done: () => boolean, deadline: number): Promise<boolean> {
  for (;;) {
    if (done()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
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
 * Waits until every lane's work queue holds nothing (visible, in flight or delayed) and no batch is running:
 * every message was deleted after its outcome was written, or moved to the DLQ. Progress on stderr:
 * a bar on a terminal, otherwise a plain line every {@link PLAIN_PROGRESS_MS} (a log stays short).
 * @returns false when the timeout passed first.
 */
async function waitUntilDrained(
  stack: LocalStack,
  total: number,
  deadline: number,
  stderr: DemoOutput["stderr"],
): Promise<boolean> {
  const bar = new SingleBar({
    stream: stderr,
    format: "deciding [{bar}] {value}/{total} messages | {dead} dead-lettered | {duration}s",
    noTTYOutput: stderr.isTTY !== true,
    notTTYSchedule: PLAIN_PROGRESS_MS,
    hideCursor: stderr.isTTY === true,
  });
  bar.start(total, 0, { dead: 0 });
  const lanes = LANES.map((lane) => stack.lanes[lane]);
  const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
  try {
    for (;;) {
      const [work, dead] = await Promise.all([
        Promise.all(lanes.map((lane) => queueDepth(stack.clients.sqs, lane.queueUrl))).then(sum),
        Promise.all(lanes.map((lane) => queueDepth(stack.clients.sqs, lane.dlqUrl))).then(sum),
      ]);
      const stats = lanes.map((lane) => lane.poller.stats());
      bar.update(Math.min(total, sum(stats.map((stat) => stat.succeeded)) + dead), { dead });
      if (work === 0 && sum(stats.map((stat) => stat.inFlightBatches)) === 0) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    bar.stop();
  }
}

async function scanOutcomes(stack: LocalStack): Promise<Outcome[]> {
  const client = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const outcomes: Outcome[] = [];
  // Failure and shadow records share the table under their own key prefixes: the scan leaves them out.
  for await (const page of scanAllOutcomes(client, stack.table)) outcomes.push(...(page as Outcome[]));
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
