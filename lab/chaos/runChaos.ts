import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import fc from "fast-check";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import { SeededRandom } from "../../core/common/SeededRandom.js";
import { loadPolicies, type PolicySet } from "../../core/policy/index.js";
import { queueDepth } from "../../local/eventSource/queueDepth.js";
import { type AdapterProcess, startAdapterProcess } from "../../local/services/startAdapterProcess.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../local/services/startDynamoDbLocal.js";
import { type LocalStack, startLocalStack } from "../../local/stack/startLocalStack.js";
// The two property runs by their own files: reliability's index also holds the load runner (autocannon).
import { checkPolicyLoading, type PolicyLoadingReport } from "../reliability/checkPolicyLoading.js";
import { checkRecordParsing, type RecordParsingReport } from "../reliability/checkRecordParsing.js";
import { buildChaosWorkload, type ChaosWorkload } from "./buildChaosWorkload.js";
import { type ChaosCheck, checkChaosInvariant, type SentMessage } from "./checkChaosInvariant.js";
import { FaultInjectionError } from "./errors.js";
import { FaultProxy, type FaultProxyLaneStats } from "./FaultProxy.js";
import type { FunctionHostConfig, FunctionHostEvent, LaneHostConfig } from "./FunctionHostConfig.js";
import { loadWorkItemTemplates } from "./loadWorkItemTemplates.js";
import { describePlannedFault, type PlannedFault, planFaultSchedule } from "./planFaultSchedule.js";
import { readDeadLetters, scanOutcomeRows } from "./readChaosEvidence.js";
import { type FunctionHost, startFunctionHost } from "./startFunctionHost.js";

/** Options of {@link runChaos}; every default is applied here. */
export interface ChaosOptions {
  /** Messages sent in all (valid items, duplicates, dual-policy pairs, ~1% poison). Default 1000. */
  messages?: number;
  /** The share of valid items sent in the bulk lane; the rest go to interactive, interleaved. Default 0.6. */
  bulkShare?: number;
  /** Seed of the workload, the fault schedule and the per-call fault decisions. Default 1. */
  seed?: number;
  /** Multiplies every fault window (DynamoDB's outage stays ≥ 3 s). Default 1. */
  windowScale?: number;
  /** A GGUF to serve. Default: the generated tiny-qwen3 demo model. */
  model?: string;
  /** The policies. Default `<repo>/policies`. */
  policyDir?: string;
  /** The sample work items varied into the workload. Default `<repo>/events`. */
  eventsDir?: string;
  /** The decide function's timeout. Default 12000 ms. */
  functionTimeoutMs?: number;
  /** `DEADLINE_MARGIN_MS` of the decide function. Default 3000 ms. */
  deadlineMarginMs?: number;
  /** The work queue's visibility timeout. Default 2 × the function timeout. */
  visibilityTimeoutSeconds?: number;
  /** Receives before the DLQ. Default 5 (as the CDK app). */
  maxReceiveCount?: number;
  /** Messages sent but not yet ended that the sender keeps in the queue. Default 40. */
  backlog?: number;
  /** llama.cpp threads of the adapter. Default: the adapter's. */
  adapterThreads?: number;
  /**
   * How long the drain may go without progress (no message ended, the work queue no shallower)
   * before the run stops and is judged not drained. The wait follows progress, not a fixed
   * budget: a busy machine drains slowly but steadily. Default 120 s + 2 × the visibility timeout
   * (a record given back waits up to that before it is received again).
   */
  drainStallMs?: number;
  /** The `java` command. Default `"java"`. */
  java?: string;
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /**
   * Property cases of the record parser and of the policy loader (fast-check, reliability/), run
   * before the pipeline starts, the run's own poison bodies among the parser's. Default 10,000; 0 skips.
   */
  propertyCases?: number;
  /** Progress lines. Default: nowhere. */
  log?: (line: string) => void;
}

/** What the property checks of a chaos run covered. */
export interface PropertyChecks {
  recordParsing: RecordParsingReport;
  policyLoading: PolicyLoadingReport;
  durationS: number;
}

/** A fault as it fired. */
export interface FiredFault {
  kind: PlannedFault["kind"];
  planned: string;
  /** Seconds since the first message was sent. */
  atS: number;
  durationS: number;
  /** What it did, in numbers (calls failed, records in flight at the kill, …). */
  details: Record<string, number | string>;
}

/** What a chaos run found. */
export interface ChaosResult {
  ok: boolean;
  seed: number;
  messages: number;
  check: ChaosCheck;
  schedule: PlannedFault[];
  fired: FiredFault[];
  /** Whether the queue drained (every message deleted or dead-lettered) before progress stalled. */
  drained: boolean;
  /** Messages the work queues still held when the evidence was read (0 when drained), both lanes. */
  queueRemaining: number;
  /** Endpoint calls per lane as the fault proxy saw them over the run, with the faults they met. */
  endpointCallsByLane: Record<Lane, FaultProxyLaneStats>;
  /** Messages SendMessageBatch refused (not part of the check). */
  sendFailures: number;
  durationS: number;
  startupS: number;
  /** The property checks that ran first (undefined when skipped). */
  properties?: PropertyChecks;
  model: string;
  /** Records the decide function gave back to SQS (transient failures), over the run. */
  recordFailures: number;
  /** Records the decide function re-queued as delayed copies because the pipeline was busy. */
  requeues: number;
  /** Those records by the error's class (`DeadlineExceededError`, `RetriesExhaustedError`, …). */
  recordFailuresByError: Record<string, number>;
  /** Median and 95th percentile of the outcomes' own timings (ms): the endpoint call, and from send to outcome. */
  outcomeTimings: { endpoint_ms: [number, number]; queue_to_outcome_ms: [number, number] };
}

const POLL_MS = 100;
/**
 * Each lane's batching, as the local stack's: interactive one record per invocation and none
 * waited for; bulk 10 records gathered for up to 500 ms (as the CDK app).
 */
const LANE_BATCHING: Record<Lane, Pick<LaneHostConfig, "batchSize" | "maximumBatchingWindowMs">> = {
  interactive: { batchSize: 1, maximumBatchingWindowMs: 0 },
  bulk: { batchSize: 10, maximumBatchingWindowMs: 500 },
};
/** Poison the record parser itself must reject (the rest is refused by the adapter, then rejected). */
const PARSER_REJECTS = new Set<string>(["invalid-json", "wrong-types", "unknown-policy", "wrong-facts"]);

/**
 * `decisions chaos`: the local pipeline under faults, in both lanes. Starts the local stack
 * (DynamoDB Local on a data folder, fauxqs with each lane's queue and DLQ, the adapter, the gateway)
 * with a fault proxy between the gateway and the adapter and each lane's decide function under its
 * poller in one process of its own; sends a seeded workload to both lanes, interleaved, at a
 * steady backlog while the seeded fault schedule fires on both (503s, slow answers near the
 * deadline, the adapter killed and restarted, DynamoDB Local stopped and restarted, the function
 * host killed mid-batch and restarted); waits until both queues drain; then checks, from a Scan
 * of the table and the lanes' DLQs alone, that every work item ended exactly once whatever lane it
 * travelled, per lane and across lanes ({@link checkChaosInvariant}). Stops everything.
 *
 * @throws LocalPartError when a part cannot start; FaultInjectionError when a part does not come back.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 1;
  const total = options.messages ?? 1000;
  // A batch of ten distinct items is ten requests on one adapter shared by two batches: on two
  // busy cores that takes several seconds, so the function gets 12 s (starting groups until 9 s).
  const functionTimeoutMs = options.functionTimeoutMs ?? 12_000;
  const deadlineMarginMs = options.deadlineMarginMs ?? 3_000;
  const visibilityTimeoutSeconds =
    options.visibilityTimeoutSeconds ?? Math.ceil((2 * functionTimeoutMs) / 1000);
  const backlog = options.backlog ?? 40;
  const root = packageRoot();
  const policyDir = options.policyDir ?? join(root, "policies");
  const random = new SeededRandom(seed);

  const policies = await loadPolicies(policyDir);
  const templates = await loadWorkItemTemplates(options.eventsDir ?? join(root, "events"), policies);
  const workload = buildChaosWorkload({
    messages: total,
    random: random.fork(),
    templates,
    idPrefix: `chaos-${seed}`,
    ...(options.bulkShare !== undefined ? { bulkShare: options.bulkShare } : {}),
  });
  const schedule = planFaultSchedule({
    random: random.fork(),
    windowScale: options.windowScale,
    deadlineMs: functionTimeoutMs - deadlineMarginMs,
  });
  log(
    `chaos: ${total} messages (${workload.counts.valid} valid items, ${workload.counts.duplicates} duplicate sends, ` +
      `${workload.counts.dualPairs} ids under two policies, ${workload.counts.poison} poison; ` +
      `${workload.counts.byLane.interactive} interactive, ${workload.counts.byLane.bulk} bulk, ` +
      `${workload.counts.crossLane} items sent in both lanes), seed ${seed}`,
  );
  const properties = runPropertyChecks(options.propertyCases ?? 10_000, policies, workload, seed, log);
  log("fault schedule:");
  for (const fault of schedule) log(`  ${describePlannedFault(fault)}`);

  const begin = performance.now();
  const dataDir = await mkdtemp(join(tmpdir(), "decisions-chaos-ddb-"));
  const cleanups: (() => Promise<void>)[] = [];
  let stack: LocalStack | undefined;
  try {
    stack = await startLocalStack({
      env: options.env,
      model: options.model,
      dataDir,
      java: options.java,
      functionTimeoutMs,
      visibilityTimeoutSeconds,
      maxReceiveCount: options.maxReceiveCount ?? 5,
      adapterThreads: options.adapterThreads,
      log,
      // These pollers are stopped below: with a 1 s long poll the stop waits at most 1 s for its receive, which then cannot take what is sent later.
      poller: { waitTimeSeconds: 1 },
      // Each lane's decide function runs in the function host process (so it can be killed); the
      // stack's own pollers are stopped before anything is sent.
      createHandler: () => async () => {
        throw new Error("the chaos run's decide functions run in the function host");
      },
    });
    const stackLanes = stack.lanes;
    await Promise.all(LANES.map((lane) => stackLanes[lane].poller.stop()));
    const running = stack;
    const proxy = await FaultProxy.start({ target: running.adapterUrl, random: random.fork() });
    cleanups.push(() => proxy.stop());
    running.gateway.setEndpoint(running.endpointName, proxy.url);

    const run = new RunState(workload);
    const hostConfig: FunctionHostConfig = {
      region: running.region,
      sqsEndpoint: running.sqsEndpoint,
      dynamodbEndpoint: running.dynamodbEndpoint,
      gatewayUrl: running.gatewayUrl,
      table: running.table,
      endpointName: running.endpointName,
      policyDir,
      functionTimeoutMs,
      // Each lane's share of the adapter as the stack sizes it (interactive in the reserved places).
      lanes: {
        interactive: laneHostConfig(running, "interactive"),
        bulk: laneHostConfig(running, "bulk"),
      },
      environment: { DEADLINE_MARGIN_MS: String(deadlineMarginMs) },
    };
    const parts: Parts = {
      stack: running,
      proxy,
      adapter: running.adapter,
      dynamodb: running.dynamodb,
      host: await startHost(hostConfig, run),
      hostConfig,
      dataDir,
      options,
    };
    cleanups.push(async () => {
      await parts.host.stop();
      // Restarted parts are this run's to stop; the stack stops the ones it started.
      if (parts.adapter !== running.adapter) await parts.adapter.stop();
      if (parts.dynamodb !== running.dynamodb) await parts.dynamodb.stop();
    });
    const startupS = (performance.now() - begin) / 1000;
    log(`stack ready in ${startupS.toFixed(1)} s; sending`);

    const flowStarted = performance.now();
    const seconds = () => (performance.now() - flowStarted) / 1000;
    const progress = setInterval(() => {
      log(
        `  ${seconds().toFixed(0)} s: ${run.sent.length}/${total} sent, ${run.ended.size} ended ` +
          `(interactive ${run.endedIn.interactive}, bulk ${run.endedIn.bulk}), ` +
          `${run.failures.size} records given back so far, ${run.requeues} re-queued for capacity, ${run.inFlight.size} in flight`,
      );
    }, 5_000);
    const fired: FiredFault[] = [];
    try {
      const queueUrls = {
        interactive: running.lanes.interactive.queueUrl,
        bulk: running.lanes.bulk.queueUrl,
      };
      const sending = sendWorkload(running.clients.sqs, queueUrls, workload, run, backlog);
      for (const fault of schedule) {
        // A stalled flow (messages on their way to the DLQ never end) must not hold the schedule.
        await waitFor(() => run.ended.size >= fault.at * total || run.sendDone || run.stalledFor(60_000));
        const atS = seconds();
        log(`  ${atS.toFixed(1)} s: fault ${describePlannedFault(fault)}`);
        const details = await fire(fault, parts, run);
        fired.push({
          kind: fault.kind,
          planned: describePlannedFault(fault),
          atS,
          durationS: seconds() - atS,
          details,
        });
        log(`  ${seconds().toFixed(1)} s: fault ${fault.kind} done: ${JSON.stringify(details)}`);
      }
      run.faultsDone = true;
      await sending;
      const drainStallMs = options.drainStallMs ?? 120_000 + 2_000 * visibilityTimeoutSeconds;
      const drained = await waitUntilDrained(
        running.clients.sqs,
        Object.values(queueUrls),
        run,
        drainStallMs,
        log,
      );
      const durationS = seconds();
      await parts.host.stop();
      const rows = await scanOutcomeRows(running.clients.dynamodb, running.table);
      // Read after the host stopped: what is still queued (visible, in flight, delayed) is not lost.
      const queueRemaining = {} as Record<Lane, number>;
      const deadLetters = [];
      for (const lane of LANES) {
        queueRemaining[lane] = await queueDepth(running.clients.sqs, running.lanes[lane].queueUrl);
        deadLetters.push(...(await readDeadLetters(running.clients.sqs, running.lanes[lane].dlqUrl, lane)));
      }
      const check = checkChaosInvariant({
        items: workload.items,
        sent: run.sent,
        rows,
        deadLetters,
        failureReasons: run.failures,
        queueRemaining,
        maxReceiveCount: options.maxReceiveCount ?? 5,
      });
      const { byLane } = proxy.stats();
      return {
        ok: chaosRunOk({
          check,
          drained,
          faultsFired: fired.length,
          faultsPlanned: schedule.length,
          sendFailures: run.sendFailures,
        }),
        seed,
        messages: total,
        check,
        schedule,
        fired,
        drained,
        queueRemaining: queueRemaining.interactive + queueRemaining.bulk,
        endpointCallsByLane: { interactive: byLane.interactive, bulk: byLane.bulk },
        sendFailures: run.sendFailures,
        durationS,
        startupS,
        ...(properties !== undefined ? { properties } : {}),
        model: running.model.generated ? `generated ${running.model.kind}` : running.model.path,
        recordFailures: run.recordFailures,
        requeues: run.requeues,
        recordFailuresByError: Object.fromEntries(run.failureKinds),
        outcomeTimings: outcomeTimings(rows),
      };
    } finally {
      clearInterval(progress);
    }
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) =>
        log(`while stopping: ${error instanceof Error ? error.message : error}`),
      );
    }
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The property runs of reliability/ (record parsing: never a crash nor a half outcome, only an item
 * or a clear rejection; policy loading: a policy or a load error naming file, line and field), with
 * this run's poison bodies among the generated ones. They throw fast-check's counterexample.
 */
function runPropertyChecks(
  cases: number,
  policies: PolicySet,
  workload: ChaosWorkload,
  seed: number,
  log: (line: string) => void,
): PropertyChecks | undefined {
  if (cases <= 0) return undefined;
  const started = performance.now();
  const poison = workload.items.flatMap((item, index) =>
    item.kind === "poison"
      ? workload.messages
          .filter((message) => message.item === index)
          .map((message) => ({
            body: message.body,
            origin: `chaos poison ${item.origin}`,
            // An oversized state or chat-control text is a valid record: the adapter refuses it (4xx).
            ...(PARSER_REJECTS.has(item.origin) ? { mustReject: item.origin } : {}),
          }))
      : [],
  );
  const recordParsing = checkRecordParsing(policies, {
    numRuns: cases,
    seed,
    ...(poison.length > 0 ? { bodies: fc.constantFrom(...poison) } : {}),
  });
  const policyLoading = checkPolicyLoading({ numRuns: cases, seed });
  const durationS = (performance.now() - started) / 1000;
  log(
    `property checks: ${recordParsing.cases} record bodies (${recordParsing.rejected} rejected), ` +
      `${policyLoading.cases} policy files (${policyLoading.refused} refused) in ${durationS.toFixed(1)} s`,
  );
  return { recordParsing, policyLoading, durationS };
}

/** The parts a fault acts on; restarted ones replace the originals here. */
interface Parts {
  stack: LocalStack;
  proxy: FaultProxy;
  adapter: AdapterProcess;
  dynamodb: DynamoDbLocal;
  host: FunctionHost;
  hostConfig: FunctionHostConfig;
  dataDir: string;
  options: ChaosOptions;
}

/** What the run knows while it flows: what was sent, what ended, what is in flight, why records failed. */
class RunState {
  readonly sent: SentMessage[] = [];
  /** Message ids deleted after success. */
  readonly ended = new Set<string>();
  /** How many of them each lane's poller deleted. */
  readonly endedIn: Record<Lane, number> = { interactive: 0, bulk: 0 };
  /** Message ids in a batch the host started and has not finished, with their lane. */
  readonly inFlight = new Map<string, Lane>();
  /** The last reason a record was given back to SQS, by message id. */
  readonly failures = new Map<string, string>();
  recordFailures = 0;
  /** Records re-queued for capacity so far. */
  requeues = 0;
  /** Message ids re-queued whose batch has not reported yet: deleted, but not ended. */
  readonly #requeued = new Set<string>();
  readonly failureKinds = new Map<string, number>();
  sendFailures = 0;
  sendDone = false;
  faultsDone = false;
  #lastProgressAt = Date.now();
  #batchStarted: ((messages: string[]) => void)[] = [];

  constructor(readonly workload: ChaosWorkload) {}

  onEvent(event: FunctionHostEvent): void {
    if (event.chaos === "batch-start") {
      for (const id of event.messages) this.inFlight.set(id, event.lane);
      if (event.messages.length > 1)
        for (const resolve of this.#batchStarted.splice(0)) resolve(event.messages);
    } else if (event.chaos === "batch-done") {
      let ended = 0;
      for (const id of event.succeeded) {
        this.inFlight.delete(id);
        // A re-queued record was deleted, but its item waits in the copy: not an end, not progress.
        if (this.#requeued.delete(id)) continue;
        this.ended.add(id);
        this.endedIn[event.lane] += 1;
        ended += 1;
      }
      if (ended > 0) this.#lastProgressAt = Date.now();
      for (const id of event.failed) {
        this.inFlight.delete(id);
        if (event.wholeBatchFailure !== undefined)
          this.failures.set(id, `whole batch: ${event.wholeBatchFailure}`);
      }
    }
  }

  /** The decide function re-queued `messageId` as a delayed copy (logged before its batch reports). */
  onRequeue(messageId: string): void {
    this.requeues += 1;
    this.#requeued.add(messageId);
  }

  /** Whether no message has ended for `ms`. */
  stalledFor(ms: number): boolean {
    return Date.now() - this.#lastProgressAt > ms;
  }

  /** Milliseconds since a message last ended. */
  msSinceProgress(): number {
    return Date.now() - this.#lastProgressAt;
  }

  /** The message ids of the next batch of two or more the host starts ([] when none starts within `timeoutMs`). */
  async nextBatchStart(timeoutMs: number): Promise<string[]> {
    const started = new Promise<string[]>((resolve) => this.#batchStarted.push(resolve));
    const timer = new AbortController();
    const result = await Promise.race([
      started,
      sleep(timeoutMs, [] as string[], { signal: timer.signal }).catch(() => [] as string[]),
    ]);
    timer.abort();
    return result;
  }
}

async function startHost(config: FunctionHostConfig, run: RunState): Promise<FunctionHost> {
  return startFunctionHost({
    config,
    onEvent: (event) => run.onEvent(event),
    onRecordFailure: ({ messageId, reason, error }) => {
      run.recordFailures += 1;
      run.failureKinds.set(error, (run.failureKinds.get(error) ?? 0) + 1);
      run.failures.set(messageId, reason);
    },
    onRequeue: ({ messageId }) => run.onRequeue(messageId),
  });
}

/**
 * Sends the workload in its order, 10 messages at a time, each to its lane's queue (one
 * SendMessageBatch per lane of the ten: the lanes interleaved), keeping about `backlog` messages
 * sent but not ended until every fault has fired, so items of both lanes flow through each fault;
 * then the rest at once.
 */
async function sendWorkload(
  sqs: SQSClient,
  queueUrls: Record<Lane, string>,
  workload: ChaosWorkload,
  run: RunState,
  backlog: number,
): Promise<void> {
  const { messages } = workload;
  for (let start = 0; start < messages.length; start += 10) {
    await waitFor(
      () => run.faultsDone || run.sent.length - run.ended.size < backlog || run.stalledFor(30_000),
    );
    for (const lane of LANES) {
      const chunk = messages.slice(start, start + 10).filter((message) => message.lane === lane);
      if (chunk.length === 0) continue;
      const answer = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrls[lane],
          Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: message.body })),
        }),
      );
      for (const entry of answer.Successful ?? []) {
        const message = chunk[Number(entry.Id)];
        if (message !== undefined && entry.MessageId !== undefined) {
          run.sent.push({ messageId: entry.MessageId, item: message.item, lane });
        }
      }
      run.sendFailures += (answer.Failed ?? []).length;
    }
  }
  run.sendDone = true;
}

/** A lane's queue and event source mapping in the function host: its batching and its share of the adapter. */
function laneHostConfig(stack: LocalStack, lane: Lane): LaneHostConfig {
  const { queueUrl, queueArn, capacity } = stack.lanes[lane];
  return {
    queueUrl,
    queueArn,
    ...LANE_BATCHING[lane],
    maximumConcurrency: capacity.maximumConcurrency,
    maxConcurrentGroups: capacity.maxConcurrentGroups,
  };
}

/** Injects one fault and undoes it; returns what it did. */
async function fire(
  fault: PlannedFault,
  parts: Parts,
  run: RunState,
): Promise<Record<string, number | string>> {
  const { proxy } = parts;
  switch (fault.kind) {
    case "adapter-errors":
    case "slow-answers": {
      const before = proxy.stats();
      proxy.inject(
        fault.kind === "adapter-errors"
          ? { kind: "error", status: fault.status, share: fault.share }
          : { kind: "slow", share: fault.share, delayMs: fault.delayMs },
      );
      await sleep(fault.durationMs);
      proxy.inject(undefined);
      const after = proxy.stats();
      const perLane: Record<string, number> = {};
      for (const lane of LANES) {
        const [was, is] = [before.byLane[lane], after.byLane[lane]];
        perLane[`${lane}_calls`] = is.requests - was.requests;
        perLane[`${lane}_hit`] =
          fault.kind === "adapter-errors" ? is.injectedErrors - was.injectedErrors : is.slowed - was.slowed;
      }
      return {
        calls: after.requests - before.requests,
        answered_error: after.injectedErrors - before.injectedErrors,
        held_back: after.slowed - before.slowed,
        ...perLane,
      };
    }
    case "adapter-kill": {
      const before = proxy.stats();
      await parts.adapter.kill();
      await sleep(fault.downMs);
      const restartStarted = performance.now();
      try {
        parts.adapter = await startAdapterProcess({
          modelPath: parts.stack.model.path,
          requireManifest: parts.stack.model.generated,
          threads: parts.options.adapterThreads,
          env: parts.options.env,
        });
      } catch (error) {
        throw new FaultInjectionError(fault.kind, "the adapter did not restart", { cause: error });
      }
      proxy.setTarget(parts.adapter.url);
      return {
        restart_ms: Math.round(performance.now() - restartStarted),
        calls_refused_while_down: proxy.stats().upstreamFailures - before.upstreamFailures,
      };
    }
    case "dynamodb-stop": {
      const { clients, table } = parts.stack;
      const port = parts.dynamodb.port;
      const itemsBefore = await countRows(clients.dynamodb, table);
      await parts.dynamodb.stop();
      await sleep(fault.downMs);
      try {
        parts.dynamodb = await startDynamoDbLocal({
          port,
          dataDir: parts.dataDir,
          java: parts.options.java,
          env: parts.options.env,
        });
      } catch (error) {
        throw new FaultInjectionError(fault.kind, `DynamoDB Local did not restart on port ${port}`, {
          cause: error,
        });
      }
      return {
        outcomes_before_stop: itemsBefore,
        outcomes_after_restart: await countRows(clients.dynamodb, table),
      };
    }
    case "poller-kill": {
      // Half of the answers are held back meanwhile, so the batch killed has some groups answered
      // and written and others still waiting: a half-written batch.
      proxy.inject({ kind: "slow", share: 0.5, delayMs: [1_500, 1_500] });
      const batch = await run.nextBatchStart(30_000);
      await sleep(fault.afterBatchStartMs);
      const halfWritten = await waitFor(
        async () => {
          const written = await countWritten(parts.stack, run, batch);
          return written > 0 && written < batch.length;
        },
        { timeoutMs: 5_000 },
      );
      await parts.host.kill();
      proxy.inject(undefined);
      const orphaned = [...run.inFlight.keys()];
      const orphanedIn = (lane: Lane) => [...run.inFlight.values()].filter((each) => each === lane).length;
      const inFlightByLane = { interactive: orphanedIn("interactive"), bulk: orphanedIn("bulk") };
      run.inFlight.clear();
      const written = await countWritten(parts.stack, run, orphaned);
      await sleep(fault.downMs);
      parts.host = await startHost(parts.hostConfig, run);
      return {
        mid_batch:
          batch.length === 0 ? "no batch started within 30 s" : halfWritten ? "yes" : "not seen half-written",
        records_in_flight_at_kill: orphaned.length,
        interactive_in_flight: inFlightByLane.interactive,
        bulk_in_flight: inFlightByLane.bulk,
        of_which_outcome_written: written,
      };
    }
  }
}

/** How many of these messages' items have an outcome already (a half-written batch has some, not all). */
async function countWritten(
  stack: LocalStack,
  run: RunState,
  messageIds: readonly string[],
): Promise<number> {
  let written = 0;
  for (const messageId of messageIds) {
    const sent = run.sent.find((message) => message.messageId === messageId);
    const item = sent === undefined ? undefined : run.workload.items[sent.item];
    if (item === undefined) continue;
    const key = item.key ?? { policy: UNPARSED_POLICY, id: messageId };
    const answer = await stack.clients.dynamodb.send(
      new GetItemCommand({
        TableName: stack.table,
        Key: { policy: { S: key.policy }, id: { S: key.id } },
        ConsistentRead: true,
        ProjectionExpression: "#id",
        ExpressionAttributeNames: { "#id": "id" },
      }),
    );
    if (answer.Item !== undefined) written += 1;
  }
  return written;
}

async function countRows(dynamodb: DynamoDBClient, table: string): Promise<number> {
  return (await scanOutcomeRows(dynamodb, table)).length;
}

/**
 * Waits until the work queues hold nothing (visible, in flight or delayed) and the host runs no
 * batch, twice in a row: every message deleted after its outcome, or moved to its DLQ. The wait
 * is bounded by progress, not by a budget: it gives up (false) once `stallMs` pass with no message
 * ended and the queues no shallower than their shallowest so far (a move to a DLQ is progress too).
 */
async function waitUntilDrained(
  sqs: SQSClient,
  queueUrls: readonly string[],
  run: RunState,
  stallMs: number,
  log: (line: string) => void,
): Promise<boolean> {
  let quiet = 0;
  let shallowest = Number.POSITIVE_INFINITY;
  let depthProgressAt = Date.now();
  for (;;) {
    let depth = 0;
    for (const queueUrl of queueUrls) depth += await queueDepth(sqs, queueUrl);
    if (depth < shallowest) {
      shallowest = depth;
      depthProgressAt = Date.now();
    }
    quiet = depth === 0 && run.inFlight.size === 0 ? quiet + 1 : 0;
    if (quiet >= 2) return true;
    const stalledMs = Math.min(run.msSinceProgress(), Date.now() - depthProgressAt);
    if (stalledMs > stallMs) {
      log(
        `  drain stalled: nothing ended for ${(stalledMs / 1000).toFixed(0)} s with ${depth} message(s) queued`,
      );
      return false;
    }
    await sleep(500);
  }
}

function outcomeTimings(rows: readonly Record<string, unknown>[]): ChaosResult["outcomeTimings"] {
  const of = (field: string): [number, number] => {
    const values = rows
      .map((row) => (row.timings as Record<string, unknown> | undefined)?.[field])
      .filter((value): value is number => typeof value === "number")
      .sort((a, b) => a - b);
    const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
    return [Math.round(at(0.5)), Math.round(at(0.95))];
  };
  return { endpoint_ms: of("endpoint_ms"), queue_to_outcome_ms: of("queue_to_outcome_ms") };
}

/** Polls `condition` until it holds (true) or `timeoutMs` passes (false). */
async function waitFor(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number } = {},
): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/**
 * A chaos run's verdict: the invariant holds, the queues drained, every planned fault fired, and
 * every message was sent — a send the queue refused is an item that never entered the pipeline,
 * of which the run proves nothing.
 */
export function chaosRunOk(run: {
  check: Pick<ChaosCheck, "ok">;
  drained: boolean;
  faultsFired: number;
  faultsPlanned: number;
  sendFailures: number;
}): boolean {
  return run.check.ok && run.drained && run.faultsFired === run.faultsPlanned && run.sendFailures === 0;
}
