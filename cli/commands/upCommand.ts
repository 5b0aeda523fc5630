/**
 * `decisions up`: the whole pipeline on this machine, both lanes, kept running until SIGINT or
 * SIGTERM, with one JSON line on stdout once ready naming every endpoint, queue, table and bucket,
 * so a user (or a script) can send their own items with `decisions submit` or any SQS client and
 * read outcomes with any DynamoDB client.
 */
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { resolveTargets } from "../../core/delivery/index.js";
import { loadPolicies, type PolicySet } from "../../core/policy/index.js";
import { DEFAULT_STATE_PREFIX, S3StateArchive } from "../../core/states/index.js";
import { ReviewApi } from "../../functions/reviewConsole/index.js";
import {
  createLocalDecideHandler,
  DEMO_MODEL_NOTICE,
  type IngestedObjectReport,
  type LocalPollerSettings,
  type LocalStack,
  type StartLocalStackOptions,
  startLocalStack,
} from "../../local/index.js";
import { type FrontDoorServer, startFrontDoor } from "../../local/services/startFrontDoor.js";
import { type ReviewServer, startReviewServer } from "../../local/services/startReviewServer.js";
import { createOutcomesClient } from "../../operations/outcomes/index.js";
import type { CliCommand, CliOutput } from "../types.js";
import { readShadowModelArgs, type ShadowModelArgs } from "./localStackArgs.js";
import { planUp, type UpOptions, upUsage } from "./planUp.js";
import { resolveServedModel } from "./resolveServedModel.js";

export { upUsage } from "./planUp.js";

/** Where `up` writes and which signals stop it (tests pass their own). */
export interface UpCommandIo extends CliOutput {
  signals: {
    once(signal: NodeJS.Signals, listener: () => void): unknown;
    off(signal: NodeJS.Signals, listener: () => void): unknown;
  };
  env: Readonly<Record<string, string | undefined>>;
}

/** Writes a line on stderr: every note of `up` but the ready line goes there. */
type Note = (line: string) => void;

/** Builds the `decisions up` command. */
export function createUpCommand(io: Partial<UpCommandIo> = {}): CliCommand {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const signals = io.signals ?? process;
  return {
    async run(args) {
      const plan = planUp(args, io.env ?? process.env);
      if (plan.mode === "help") {
        stdout.write(upUsage());
        return 0;
      }
      const shadow = await readShadowModelArgs(plan.options.shadowFlags, upUsage());
      const note: Note = (line) => {
        stderr.write(`${line}\n`);
      };
      // `--model hf:…`: pulled once into the model cache before anything starts.
      const model = await resolveServedModel(plan.options.stack.model, {
        env: io.env ?? process.env,
        stderr,
      });
      const options: UpOptions = { ...plan.options, stack: { ...plan.options.stack, model } };
      // Loaded before anything starts, so a policy mistake is told without a stack to tear down.
      const policies = await loadPolicies(options.policyDir);
      // Listening from here on, not only once ready: a SIGINT or SIGTERM while the parts start, or
      // the instant the ready lines are out (a script or a test on a busy machine may send it then),
      // must not meet Node.js's default action, which ends the process at once and leaves DynamoDB
      // Local and the adapter running. One that comes during the start stops everything after it.
      let ready = false;
      const stop = listenForStop(signals, (signal) =>
        note(`${signal}: stopping${ready ? "" : " as soon as the parts that are starting are up"}`),
      );
      const deliveries = deliveriesOf(policies, io.env ?? process.env);
      const stack = await startStack({ ...options, deliveries }, shadow, note).catch((error: unknown) => {
        stop.dispose();
        throw error;
      });
      const review = await startReviewConsole(options, stack, policies, note).catch(
        async (error: unknown) => {
          // Nothing may outlive a failed start: the stack's processes are stopped before the error is told.
          stop.dispose();
          await stack.stop();
          throw error;
        },
      );
      const frontDoor = await startLocalFrontDoor(options, stack, policies, note).catch(
        async (error: unknown) => {
          stop.dispose();
          await review.server.stop();
          review.client.destroy();
          await stack.stop();
          throw error;
        },
      );
      ready = stop.signal === undefined;
      if (ready) printReady(stack, review.server, frontDoor, stdout, note);
      await stop.requested;
      await frontDoor.stop();
      await review.server.stop();
      review.client.destroy();
      await stack.stop();
      note("stopped");
      return 0;
    },
  };
}

/** Deliveries when a loaded policy has a `deliver:` section (`delivery_dlq_url` in the ready line). */
function deliveriesOf(
  policies: PolicySet,
  env: Readonly<Record<string, string | undefined>>,
): StartLocalStackOptions["deliveries"] {
  // Resolved here first so a missing or malformed secret is told before anything starts.
  return resolveTargets(policies, env).length > 0 ? { policies, env } : undefined;
}

/** Starts the local stack as the flags ask, its functions' and pollers' news told by `note`. */
function startStack(
  options: UpOptions & Pick<StartLocalStackOptions, "deliveries">,
  shadow: ShadowModelArgs,
  note: Note,
): Promise<LocalStack> {
  const { policyDir, functionLogLevel, eventSource } = options;
  const { shadowModel, shadowTimeoutMs } = shadow;
  return startLocalStack({
    ...options.stack,
    ...eventSource,
    ...(shadowModel === undefined ? {} : { shadowModel }),
    ...(options.deliveries === undefined ? {} : { deliveries: { ...options.deliveries, log: note } }),
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
    jobs: jobNotes(note),
    lanePollers: Object.fromEntries(
      LANES.map((lane) => [lane, { ...eventSource.poller, ...pollerNotes(lane, note) }]),
    ),
  });
}

/** The review console and the DynamoDB client its API reads the stack's table with. */
interface ReviewConsole {
  server: ReviewServer;
  client: ReturnType<typeof createOutcomesClient>;
}

/**
 * Starts the review console on the stack's table, bucket and the policies.
 * @throws UsageError for a bad `--review-port`, or what the server's start raised; the client is
 *   destroyed first (the caller stops the stack).
 */
async function startReviewConsole(
  options: UpOptions,
  stack: LocalStack,
  policies: PolicySet,
  note: Note,
): Promise<ReviewConsole> {
  const client = createOutcomesClient({
    region: stack.region,
    endpointUrl: stack.dynamodbEndpoint,
  });
  const { port, reviewer } = options.review;
  try {
    const server = await startReviewServer({
      api: new ReviewApi({
        client,
        tableName: stack.table,
        policies,
        // The decide function keeps the whole state of items sent to review here.
        states: new S3StateArchive({ s3: stack.clients.s3, bucket: stack.bucket }),
      }),
      // The HTTP API's routes as the template declares them: a route it lacks is a 404 here too.
      routes: stack.plan.consoleRoutes,
      ...(port === undefined ? {} : { port }),
      ...(typeof reviewer === "string" ? { defaultReviewer: reviewer } : {}),
      log: note,
    });
    return { server, client };
  } catch (error) {
    client.destroy();
    throw error;
  }
}

/** Starts the front door (work items over HTTP, `submit_url`) on the stack's lane queues and the policies. */
function startLocalFrontDoor(
  options: UpOptions,
  stack: LocalStack,
  policies: PolicySet,
  note: Note,
): Promise<FrontDoorServer> {
  if (options.webhookSecret === undefined)
    note(
      "the front door refuses every request (401) until decisions up is started with --webhook-secret whsec_…",
    );
  return startFrontDoor({
    sqs: stack.clients.sqs,
    dynamodb: stack.clients.dynamodb,
    region: stack.region,
    queueUrls: { interactive: stack.lanes.interactive.queueUrl, bulk: stack.lanes.bulk.queueUrl },
    policies,
    webhookSecret: options.webhookSecret,
    log: note,
  });
}

/** The ready lines: the demo model's notice and the time on stderr, the connection JSON on stdout. */
function printReady(
  stack: LocalStack,
  review: ReviewServer,
  frontDoor: FrontDoorServer,
  stdout: CliOutput["stdout"],
  note: Note,
): void {
  if (stack.model.generated) note(DEMO_MODEL_NOTICE);
  note(
    `ready in ${((stack.startupMs.total ?? 0) / 1000).toFixed(1)} s; Ctrl-C (SIGINT) or SIGTERM stops everything`,
  );
  stdout.write(
    `${JSON.stringify({ ...stack.connectionInfo(), review_url: review.url, submit_url: frontDoor.submitUrl, review_states: `s3://${stack.bucket}/${DEFAULT_STATE_PREFIX}` })}\n`,
  );
}

/** What the stack's jobs tell on stderr: each job's end, and results that could not be written. */
function jobNotes(note: Note): NonNullable<StartLocalStackOptions["jobs"]> {
  return {
    onCompleted: (detail) =>
      note(
        `job ${detail.job_id} ${detail.status}: ${JSON.stringify(detail.counts)} ${detail.results_uri !== undefined ? `results ${detail.results_uri}` : `reason: ${detail.reason ?? "none given"}`}`,
      ),
    onError: (jobId, error) =>
      note(
        `job ${jobId}: its results could not be written: ${error instanceof Error ? error.message : String(error)}`,
      ),
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

/** The `up` sub-command on the process's stdout, stderr, signals and environment. */
export const upCommand: CliCommand = createUpCommand();
