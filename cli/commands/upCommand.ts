/**
 * `decisions up`: the whole pipeline on this machine, both lanes, kept running until SIGINT or
 * SIGTERM, with one JSON line on stdout once ready naming every endpoint, queue, table and bucket,
 * so a user (or a script) can send their own items with `decisions submit` or any SQS client and
 * read outcomes with any DynamoDB client.
 */
import { join, resolve } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { loadPolicies } from "../../functions/policy/index.js";
import { ReviewApi } from "../../functions/reviewConsole/index.js";
import { DEFAULT_STATE_PREFIX, S3StateArchive } from "../../functions/states/index.js";
import {
  createLocalDecideHandler,
  DEMO_MODEL_NOTICE,
  type IngestedObjectReport,
  type LocalPollerSettings,
  startLocalStack,
} from "../../local/index.js";
import { type ReviewServer, startReviewServer } from "../../local/services/startReviewServer.js";
import { createOutcomesClient } from "../../operations/outcomes/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";
import {
  localStackFlags,
  localStackUsage,
  readLocalStackArgs,
  readShadowModelArgs,
  shadowModelFlag,
  shadowModelUsage,
} from "./localStackArgs.js";

/** Usage text of `decisions up`. */
export function upUsage(): string {
  return [
    "usage: decisions up [options]",
    "",
    "Starts DynamoDB Local, fauxqs (SQS + S3), the adapter, the SageMaker gateway and, per lane",
    "(interactive, bulk), a work queue with its DLQ and the decide function behind an SQS event source",
    "poller; prints one JSON line on stdout when ready (region, sqs_endpoint, queue_urls and dlq_urls",
    "— {interactive, bulk} —, queue_url and dlq_url — the interactive lane's —, dynamodb_endpoint, table,",
    "s3_endpoint, bucket, gateway_url, endpoint_name, adapter_url, review_url, ingest_prefix, …; with",
    "--shadow-model also shadow_adapter_url, shadow_endpoint_name, shadow_model, shadow_model_sha256); runs",
    "until SIGINT or SIGTERM, then stops everything. review_url is the review console (127.0.0.1, no",
    "sign-in): the items waiting for a person. A JSONL object put into the bucket under ingest_prefix",
    "(and ending in ingest_suffix, .jsonl) is ingested as the deployed S3 event rule does: a job, one",
    "work item per line, in the bulk lane. Interactive work (incidents, tickets one at a time) goes to",
    "queue_urls.interactive and is decided ahead of a draining job. Save the line to pick a lane's",
    "queue by name later: `decisions up > up.json`, then `decisions submit … --up-info up.json`.",
    "",
    "options:",
    "  --policies <folder>          the policy files the decide and ingest functions and the review",
    "                               console use (default: this package's policies/)",
    "  --review-port <n>            port of the review console on 127.0.0.1 (default: a free one)",
    "  --reviewer <name>            the reviewer's name when the console's page names none",
    ...localStackUsage(),
    ...shadowModelUsage(),
    "",
    "the event sources (as the CDK app's, scaled for one machine; each lane's concurrency is its share",
    "of the adapter: interactive 2 invocations × 1 call, bulk 2 × 3):",
    ...EVENT_SOURCE_FLAGS.map(
      ({ flag, what, fallback }) => `  --${flag.padEnd(27)}${what} (default ${fallback})`,
    ),
    "Records the function gives back are logged on stderr (warn level) and keep a failure record;",
    "`decisions dlq list` and `decisions outcomes show` read it.",
    "",
  ].join("\n");
}

/** up's event-source flags: the queue's and the mapping's settings, as the CDK app has them. */
const EVENT_SOURCE_FLAGS = [
  {
    flag: "function-timeout",
    what: "the decide function's timeout, in seconds (1–900)",
    fallback: "30",
    min: 1,
    max: 900,
  },
  {
    flag: "visibility-timeout",
    what: "the work queues' visibility timeout, in seconds: how long a record given back waits (0–43200)",
    fallback: "6 × the function timeout",
    min: 0,
    max: 43_200,
  },
  {
    flag: "max-receive-count",
    what: "receives before a message moves to the DLQ (1–1000)",
    fallback: "5",
    min: 1,
    max: 1000,
  },
  {
    flag: "batch-size",
    what: "records per invocation at most, both lanes (1–10000)",
    fallback: "interactive 1, bulk 10",
    min: 1,
    max: 10_000,
  },
  {
    flag: "batch-window",
    what: "how long a batch keeps gathering records, in milliseconds, both lanes (0–300000)",
    fallback: "interactive 0, bulk 500",
    min: 0,
    max: 300_000,
  },
] as const;

type EventSourceFlag = (typeof EVENT_SOURCE_FLAGS)[number]["flag"];

/** The stack options the event-source flags set (only those given: startLocalStack applies the rest). */
function readEventSourceArgs(values: Record<string, unknown>, usage: string) {
  const read = (flag: EventSourceFlag): number | undefined => {
    const text = values[flag];
    if (typeof text !== "string") return undefined;
    const { min, max } = EVENT_SOURCE_FLAGS.find((entry) => entry.flag === flag) ?? { min: 0, max: 0 };
    const number = Number(text);
    if (!/^\d+$/.test(text) || number < min || number > max) {
      throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${text}"`, { usage });
    }
    return number;
  };
  const functionTimeout = read("function-timeout");
  const visibility = read("visibility-timeout");
  const maxReceiveCount = read("max-receive-count");
  const batchSize = read("batch-size");
  const batchWindow = read("batch-window");
  return {
    ...(functionTimeout !== undefined ? { functionTimeoutMs: functionTimeout * 1000 } : {}),
    ...(visibility !== undefined ? { visibilityTimeoutSeconds: visibility } : {}),
    ...(maxReceiveCount !== undefined ? { maxReceiveCount } : {}),
    poller: {
      ...(batchSize !== undefined ? { batchSize } : {}),
      ...(batchWindow !== undefined ? { maximumBatchingWindowMs: batchWindow } : {}),
    },
  };
}

/** Where `up` writes and which signals stop it (tests pass their own). */
export interface UpCommandIo extends CliOutput {
  signals: {
    once(signal: NodeJS.Signals, listener: () => void): unknown;
    off(signal: NodeJS.Signals, listener: () => void): unknown;
  };
  env: Readonly<Record<string, string | undefined>>;
}

/** Builds the `decisions up` command. */
export function createUpCommand(io: Partial<UpCommandIo> = {}): CliCommand {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const signals = io.signals ?? process;
  return {
    async run(args) {
      const usage = upUsage();
      const { values } = parseCommandArgs({
        args,
        options: {
          ...localStackFlags(),
          ...shadowModelFlag(),
          policies: { type: "string" },
          "review-port": { type: "string" },
          reviewer: { type: "string" },
          ...Object.fromEntries(EVENT_SOURCE_FLAGS.map(({ flag }) => [flag, { type: "string" as const }])),
        },
        usage,
      });
      if (values.help === true) {
        stdout.write(usage);
        return 0;
      }
      const env = io.env ?? process.env;
      // Warn and error lines go to stderr (Powertools' console), so the stdout line stays one line.
      const { stack: settings, functionLogLevel } = readLocalStackArgs(values, env, usage, "WARN");
      const eventSource = readEventSourceArgs(values, usage);
      const { shadowModel, shadowTimeoutMs } = await readShadowModelArgs(values, usage);
      const note = (line: string): void => {
        stderr.write(`${line}\n`);
      };
      // Loaded before anything starts, so a policy mistake is told without a stack to tear down.
      const policyDir =
        typeof values.policies === "string" ? resolve(values.policies) : join(packageRoot(), "policies");
      const policies = await loadPolicies(policyDir);
      // Listening from here on, not only once ready: a SIGINT or SIGTERM while the parts start, or
      // the instant the ready lines are out (a script or a test on a busy machine may send it then),
      // must not meet Node.js's default action, which ends the process at once and leaves DynamoDB
      // Local and the adapter running. One that comes during the start stops everything after it.
      let ready = false;
      const stop = listenForStop(signals, (signal) =>
        note(`${signal}: stopping${ready ? "" : " as soon as the parts that are starting are up"}`),
      );
      const stack = await startLocalStack({
        ...settings,
        ...eventSource,
        ...(shadowModel === undefined ? {} : { shadowModel }),
        log: note,
        createHandler: (context) =>
          createLocalDecideHandler(context, {
            policyDir,
            logLevel: functionLogLevel,
            laneGroups: true,
            ...(shadowTimeoutMs === undefined
              ? {}
              : { environment: { SHADOW_TIMEOUT_MS: String(shadowTimeoutMs) } }),
          }),
        ingest: {
          policyDir,
          logLevel: functionLogLevel,
          onIngested: (report) => note(describeIngested(report)),
        },
        jobs: {
          onCompleted: (detail) =>
            note(
              `job ${detail.job_id} ${detail.status}: ${JSON.stringify(detail.counts)} ${detail.results_uri !== undefined ? `results ${detail.results_uri}` : `reason: ${detail.reason ?? "none given"}`}`,
            ),
          onError: (jobId, error) =>
            note(
              `job ${jobId}: its results could not be written: ${error instanceof Error ? error.message : String(error)}`,
            ),
        },
        lanePollers: Object.fromEntries(
          LANES.map((lane) => [lane, { ...eventSource.poller, ...pollerNotes(lane, note) }]),
        ),
      }).catch((error: unknown) => {
        stop.dispose();
        throw error;
      });
      const reviewClient = createOutcomesClient({
        region: stack.region,
        endpointUrl: stack.dynamodbEndpoint,
      });
      let review: ReviewServer;
      try {
        review = await startReviewServer({
          api: new ReviewApi({
            client: reviewClient,
            tableName: stack.table,
            policies,
            // The decide function keeps the whole state of items sent to review here.
            states: new S3StateArchive({ s3: stack.clients.s3, bucket: stack.bucket }),
          }),
          ...(typeof values["review-port"] === "string"
            ? { port: reviewPort(values["review-port"], usage) }
            : {}),
          ...(typeof values.reviewer === "string" ? { defaultReviewer: values.reviewer } : {}),
          log: note,
        });
      } catch (error) {
        // Nothing may outlive a failed start: the stack's processes are stopped before the error is told.
        stop.dispose();
        reviewClient.destroy();
        await stack.stop();
        throw error;
      }
      ready = stop.signal === undefined;
      if (ready) {
        if (stack.model.generated) note(DEMO_MODEL_NOTICE);
        note(
          `ready in ${((stack.startupMs.total ?? 0) / 1000).toFixed(1)} s; Ctrl-C (SIGINT) or SIGTERM stops everything`,
        );
        stdout.write(
          `${JSON.stringify({ ...stack.connectionInfo(), review_url: review.url, review_states: `s3://${stack.bucket}/${DEFAULT_STATE_PREFIX}` })}\n`,
        );
      }
      await stop.requested;
      await review.stop();
      reviewClient.destroy();
      await stack.stop();
      note("stopped");
      return 0;
    },
  };
}

/** SIGINT or SIGTERM, listened for once by {@link listenForStop}. */
interface StopListener {
  /** Resolves with the first of the two signals. */
  readonly requested: Promise<NodeJS.Signals>;
  /** That signal, once it came. */
  readonly signal: NodeJS.Signals | undefined;
  /** Stops listening: the two signals have their default action again. */
  dispose(): void;
}

/** Listens for the first SIGINT or SIGTERM, tells `onSignal` of it, and then stops listening. */
function listenForStop(
  signals: UpCommandIo["signals"],
  onSignal: (signal: NodeJS.Signals) => void,
): StopListener {
  let signal: NodeJS.Signals | undefined;
  let resolveRequested: (name: NodeJS.Signals) => void = () => undefined;
  const requested = new Promise<NodeJS.Signals>((resolve) => {
    resolveRequested = resolve;
  });
  const onInt = (): void => done("SIGINT");
  const onTerm = (): void => done("SIGTERM");
  const dispose = (): void => {
    signals.off("SIGINT", onInt);
    signals.off("SIGTERM", onTerm);
  };
  const done = (name: NodeJS.Signals): void => {
    dispose();
    signal = name;
    onSignal(name);
    resolveRequested(name);
  };
  signals.once("SIGINT", onInt);
  signals.once("SIGTERM", onTerm);
  return {
    requested,
    get signal() {
      return signal;
    },
    dispose,
  };
}

/** What a lane's poller tells on stderr: failed records and its own errors, named by lane. */
function pollerNotes(lane: Lane, note: (line: string) => void): LocalPollerSettings {
  return {
    onBatch: ({ records, outcome }) => {
      if (outcome.failed.length === 0) return;
      const why =
        outcome.wholeBatchFailure ??
        `reported in batchItemFailures: ${outcome.failed.map((record) => record.messageId).join(", ")} (the function's log lines and failure records say why)`;
      note(
        `${lane} lane: ${outcome.failed.length} of ${records.length} records failed and return after the visibility timeout: ${why}`,
      );
    },
    onError: (error: unknown) =>
      note(`${lane} lane's poller: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
  };
}

function describeIngested(report: IngestedObjectReport): string {
  const where = `s3://${report.bucket}/${report.key}`;
  const seconds = (report.elapsedMs / 1000).toFixed(1);
  if (report.result === undefined) {
    const why = report.error instanceof Error ? report.error.message : String(report.error);
    return `ingest ${where} failed after ${seconds} s: ${why}`;
  }
  const { linesRead, sent, rejected } = report.result;
  return `ingest ${where}: ${linesRead} lines read, ${sent} queued, ${rejected} rejected (${seconds} s)`;
}

function reviewPort(text: string, usage: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--review-port must be a port number (0–65535), not "${text}"`, { usage });
  return port;
}

/** The `up` sub-command on the process's stdout, stderr, signals and environment. */
export const upCommand: CliCommand = createUpCommand();
