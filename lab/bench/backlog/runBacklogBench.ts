import type { ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import { SeededRandom } from "../../../core/common/SeededRandom.js";
import { buildSystemOneBody } from "../../../core/pipeline/index.js";
import { loadPolicies, type PolicySet } from "../../../core/policy/index.js";
// The CDK app's own rule, by its file (pure arithmetic): the bench sizes the pipeline as a deployment is sized.
import { deriveLaneCapacity } from "../../../infra/capacity/deriveDecideCapacity.js";
import { queueDepth } from "../../../local/eventSource/queueDepth.js";
import {
  createLocalDecideHandler,
  type LocalStack,
  type SqsBatchHandler,
  SqsEventSourcePoller,
  type StackHandlerContext,
  startLocalStack,
} from "../../../local/index.js";
// By their files: the chaos index also holds the chaos run, which the bench does not need.
import type { WorkloadItem } from "../../chaos/buildChaosWorkload.js";
import { type ChaosCheck, checkChaosInvariant, type SentMessage } from "../../chaos/checkChaosInvariant.js";
import { FaultProxy, type ProxyExchange } from "../../chaos/FaultProxy.js";
import { loadWorkItemTemplates } from "../../chaos/loadWorkItemTemplates.js";
import { readDeadLetters, scanOutcomeRows } from "../../chaos/readChaosEvidence.js";
import { describeMachine } from "../describeMachine.js";
import { type CpuByPart, measureCpu } from "../pipeline/measureCpu.js";
import { startBusyProcesses } from "../startBusyProcesses.js";
import { type BacklogItem, buildBacklogItems, groupKey } from "./buildBacklogItems.js";
import { type EndpointCall, type EndpointProfile, profileEndpointCalls } from "./profileEndpointCalls.js";
import { type Invocation, type InvocationProfile, profileInvocations } from "./profileInvocations.js";
import {
  BACKLOG_GOAL,
  type BacklogRound,
  type BacklogSummary,
  meetsBacklogGoal,
  summarizeBacklog,
} from "./summarizeBacklog.js";

/** Options of {@link runBacklogBench}. */
export interface BacklogBenchOptions {
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Work items put on the queue at once. Default {@link DEFAULT_ITEMS}: 90 (200 with `quick`). */
  items?: number;
  /** The generated tiny-qwen3 model and 200 items: a few minutes on 2 cores. Default false. */
  quick?: boolean;
  /** GGUF to serve. Default: the generated qwen3-0.6b-shape (tiny-qwen3 with `quick`). */
  modelPath?: string;
  /** llama.cpp threads of the adapter. Default: the adapter's. */
  threads?: number;
  /** CPU-bound processes (`sh -c 'while :; do :; done'`) kept running beside the whole run, killed after. Default 0. */
  busy?: number;
  /**
   * Function instances (each its own decide handler, so its own limiter and retry budget, under an
   * event source slot of concurrency 1, as Lambda runs one invocation per instance). Default: the
   * event source's maximum concurrency the CDK app derives from what the adapter admits
   * (`deriveLaneCapacity`: 2 for 1 running + 8 waiting).
   */
  instances?: number;
  /** `MAX_CONCURRENT_GROUPS` of each instance. Default: the CDK app's derivation (4 for 9 admitted). */
  maxConcurrentGroups?: number;
  /**
   * Rounds: the items are split into this many backlogs, each drained by the pipeline with the
   * adapter alone measured on the same items right beside it (in turn before and after), so that
   * the goodput ratio is a median of side-by-side ratios, not two runs minutes apart. Default 3.
   */
  rounds?: number;
  /**
   * The decide function's timeout. Default 120000 ms, the CDK app's default
   * (`functionTimeoutSeconds`): a shorter one defers groups that a deployment would have run.
   */
  functionTimeoutMs?: number;
  /** The work queue's visibility timeout. Default 2 × the function timeout. */
  visibilityTimeoutSeconds?: number;
  /** The drain stops, judged not drained, once nothing has ended for this long. Default 120 s + 2 × the visibility timeout. */
  stallMs?: number;
  /** Seed of the workload. Default 1. */
  seed?: number;
  /** Where the JSON goes. Default: `lab/bench/results`. */
  outDir?: string;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** `backlog-<timestamp>.json`: the summary's numbers at the top, then how they were measured. */
export interface BacklogBenchReport extends BacklogSummary {
  command: string;
  started_at: string;
  duration_s: number;
  quick: boolean;
  goal: typeof BACKLOG_GOAL;
  goal_met: boolean;
  machine: ReturnType<typeof describeMachine> & {
    load_average_start: number[];
    load_average_end: number[];
    /** CPU-bound processes the bench ran beside itself. */
    busy_processes: number;
  };
  model: string;
  workload: {
    policies: Record<string, number>;
    shared_items: number;
    single_items: number;
    /** Requests the items need at best: one per distinct (policy, state) in each round. */
    distinct_requests: number;
  };
  setup: {
    instances: number;
    max_concurrent_groups: number;
    batch_size: number;
    maximum_batching_window_ms: number;
    function_timeout_ms: number;
    visibility_timeout_s: number;
    max_receive_count: number;
    adapter_admission: { running: number; waiting: number };
    /** How the instances and groups were chosen: the CDK app's derivation, or given. */
    sizing: string;
    /** Calls the pipeline may have in flight at once (instances × groups) against the admission. */
    calls_in_flight: number;
  };
  adapter_alone: { runs: { wall_s: number; decisions_per_s: number; requests: number }[]; clients: number };
  /** Each round: its backlog, how long the pipeline took, the adapter alone beside it, and their ratio. */
  rounds: {
    items: number;
    order: "alone first" | "pipeline first";
    drain_s: number;
    pipeline_decisions_per_s: number;
    adapter_alone_decisions_per_s: number;
    ratio: number;
    /** Where the drain's time went at the endpoint (see {@link EndpointProfile}). */
    endpoint: EndpointProfile;
    /** And at the function instances (see {@link InvocationProfile}). */
    functions: InvocationProfile;
  }[];
  endpoint_statuses: Record<string, number>;
  check: Pick<ChaosCheck, "ok" | "counts" | "violations">;
  /** CPU seconds per part (and the wall time) of each phase; warm-up included, so its cost is visible. */
  cpu_seconds: { warm_up: CpuByPart; adapter_alone: CpuByPart; pipeline: CpuByPart };
}

/**
 * Items of a run without `--items`: 200 on the generated tiny-qwen3 (`quick`; 7 minutes in all on
 * 2 cores at a load average of 12), 90 on the 0.6B shape, whose decisions take seconds each (1000
 * of them, adapter alone beside, would take hours).
 */
export const DEFAULT_ITEMS = { quick: 200, full: 90 } as const;

const BATCH_SIZE = 10;
const BATCHING_WINDOW_MS = 500;
const MAX_RECEIVE_COUNT = 5;
/** Clients of the adapter-alone run: its admission (1 running + 8 queued) never refuses them, and the engine always has the next request waiting. */
const ADAPTER_CLIENTS = 4;
/** What the bench's adapter admits, given to it explicitly (its defaults): one request running, eight waiting. */
const ADAPTER_ADMISSION = { running: 1, waiting: 8 } as const;
/** `MAX_CONCURRENT_GROUPS` the CDK app is configured with by default; its derivation may lower it. */
const CONFIGURED_GROUPS = 4;

/**
 * `decisions bench --backlog`: a backlog through the whole local pipeline against the adapter
 * alone. Starts the local stack (DynamoDB Local, fauxqs, the adapter with its cross-request cache
 * off and an explicit admission of 1 running + 8 waiting, the gateway) with a counting proxy
 * between the gateway and the adapter, and `instances` decide function instances each under its
 * own event source slot, sized by default as the CDK app sizes a deployment for what the endpoint
 * admits at minimum capacity (`deriveLaneCapacity`). Warms every part (a small backlog through
 * the pipeline, then the adapter alone), then runs `rounds` rounds: each puts its share of the
 * items on the queue at once and drains it, with the adapter alone measured on the same items
 * right before or after (in turn), so each round's ratio compares runs side by side. Then checks
 * from the table, the DLQ and the queue (the chaos checker) that every item ended exactly once.
 * Writes `backlog-<timestamp>.json`.
 *
 * @throws LocalPartError when a part cannot start.
 */
export async function runBacklogBench(
  options: BacklogBenchOptions,
): Promise<{ report: BacklogBenchReport; jsonPath: string }> {
  const startedAt = new Date();
  const setup = setupOf(options);
  const busy = startBusyProcesses(options.busy ?? 0);
  try {
    const loadStart = loadavg();
    const workload = await prepareWorkload(options, setup);
    setup.log(
      `bench --backlog: ${workload.items.length} items in ${setup.roundCount} rounds, ${requestsOf(workload.roundItems)} distinct requests, ` +
        `${setup.instances} instances × ${setup.maxConcurrentGroups} groups (${setup.sizing}), model ${workload.modelPath}, ` +
        `${options.busy ?? 0} busy processes beside, load average ${fmt(loadStart)}`,
    );
    const { stack, context } = await startBenchStack(workload.modelPath, options.threads, options.env, setup);
    const calls: EndpointCall[] = [];
    let proxy: FaultProxy | undefined;
    try {
      await stack.poller.stop();
      if (context === undefined) throw new Error("the stack built no handler context");
      proxy = await startCountingProxy(stack.adapterUrl, calls);
      stack.gateway.setEndpoint(stack.endpointName, proxy.url);
      const handlers = await createInstances(context, setup);
      const rig: BenchRig = {
        stack,
        handlers,
        parts: { adapter: stack.adapter.pid, "DynamoDB Local": stack.dynamodb.pid },
        calls,
        policies: workload.policies,
        setup,
      };
      const warm = await warmUp(rig, workload.warmItems);
      calls.length = 0;
      const totals = emptyTotals();
      for (const index of workload.roundItems.keys()) await runRound(rig, workload, index, totals);
      const check = await checkEveryItemEnded(stack, workload.items, totals.sent);
      const report = buildReport({
        options,
        setup,
        startedAt,
        loadStart,
        busy,
        workload,
        totals,
        check,
        warm,
      });
      return await writeReport(report, options.outDir, startedAt);
    } finally {
      await proxy?.stop();
      await stack.stop();
    }
  } finally {
    for (const child of busy) child.kill("SIGKILL");
  }
}

/** What the bench resolved from its options: the run's size, its sizing, timeouts and log. */
interface BacklogBenchSetup {
  quick: boolean;
  count: number;
  roundCount: number;
  instances: number;
  maxConcurrentGroups: number;
  /** How the instances and groups were chosen. */
  sizing: string;
  functionTimeoutMs: number;
  visibilityTimeoutSeconds: number;
  stallMs: number;
  log: (line: string) => void;
}

/** The options with their defaults applied (the sizing as the CDK app derives it). @throws RangeError for a bad `rounds`. */
function setupOf(options: BacklogBenchOptions): BacklogBenchSetup {
  const quick = options.quick ?? false;
  const count = options.items ?? (quick ? DEFAULT_ITEMS.quick : DEFAULT_ITEMS.full);
  const roundCount = options.rounds ?? 3;
  if (!Number.isInteger(roundCount) || roundCount < 1 || roundCount > count) {
    throw new RangeError(`rounds must be an integer from 1 to the items (${count}), got ${roundCount}`);
  }
  // One lane holding every place of one instance (the backlog bench drains one queue).
  const derived = deriveLaneCapacity(
    ADAPTER_ADMISSION.running + ADAPTER_ADMISSION.waiting,
    CONFIGURED_GROUPS,
  );
  const instances = options.instances ?? derived.maxConcurrency;
  const maxConcurrentGroups = options.maxConcurrentGroups ?? derived.groupsPerInvocation;
  const sizing =
    options.instances === undefined && options.maxConcurrentGroups === undefined
      ? `the CDK app's derivation for ${derived.calls} admitted (deriveLaneCapacity)`
      : "given (--instances / --groups)";
  const functionTimeoutMs = options.functionTimeoutMs ?? 120_000;
  const visibilityTimeoutSeconds =
    options.visibilityTimeoutSeconds ?? Math.ceil((2 * functionTimeoutMs) / 1000);
  // A record given back waits out the visibility timeout before anything can end it.
  const stallMs = options.stallMs ?? 120_000 + 2_000 * visibilityTimeoutSeconds;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    quick,
    count,
    roundCount,
    instances,
    maxConcurrentGroups,
    sizing,
    functionTimeoutMs,
    visibilityTimeoutSeconds,
    stallMs,
    log,
  };
}

/** The model, the policies and the items: each round's backlog, and a smaller one to warm up on. */
interface BacklogWorkload {
  modelPath: string;
  policies: PolicySet;
  roundItems: BacklogItem[][];
  /** Every round's items, in round order. */
  items: BacklogItem[];
  warmItems: BacklogItem[];
}

/** Finds (or generates) the model, loads the policies and builds the seeded items of every round. */
async function prepareWorkload(
  options: BacklogBenchOptions,
  setup: BacklogBenchSetup,
): Promise<BacklogWorkload> {
  const { quick, count, roundCount } = setup;
  const modelPath =
    options.modelPath ?? (await ensureGeneratedModel(quick ? "tiny-qwen3" : "qwen3-0.6b-shape"));
  const root = packageRoot();
  const policies = await loadPolicies(join(root, "policies"));
  const templates = await loadWorkItemTemplates(join(root, "events"), policies);
  const random = new SeededRandom(options.seed ?? 1);
  const roundItems = Array.from({ length: roundCount }, (_, index) =>
    buildBacklogItems({
      templates,
      policies,
      count: Math.floor(count / roundCount) + (index < count % roundCount ? 1 : 0),
      random: random.fork(),
      idPrefix: `backlog-r${index}`,
    }),
  );
  const items = roundItems.flat();
  const warmItems = buildBacklogItems({
    templates,
    policies,
    count: Math.min(60, Math.max(12, Math.round(count / 10))),
    random: random.fork(),
    idPrefix: "warm",
  });
  return { modelPath, policies, roundItems, items, warmItems };
}

/**
 * Starts the local stack with the bench's adapter (cache off, explicit admission) and a stand-in
 * handler: the bench runs its own function instances on the handler context the stack builds.
 */
async function startBenchStack(
  modelPath: string,
  threads: number | undefined,
  env: Readonly<NodeJS.ProcessEnv>,
  setup: BacklogBenchSetup,
): Promise<{ stack: LocalStack; context: StackHandlerContext | undefined }> {
  let context: StackHandlerContext | undefined;
  const stack = await startLocalStack({
    env,
    model: modelPath,
    adapterThreads: threads,
    adapterArgs: [
      "--cache-max-bytes",
      "0",
      "--max-in-flight",
      String(ADAPTER_ADMISSION.running),
      "--queue-depth",
      String(ADAPTER_ADMISSION.waiting),
    ],
    functionTimeoutMs: setup.functionTimeoutMs,
    visibilityTimeoutSeconds: setup.visibilityTimeoutSeconds,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    log: setup.log,
    // This poller is stopped below: with a 1 s long poll the stop waits at most 1 s for its receive, which then cannot take what is sent later.
    poller: { waitTimeSeconds: 1 },
    createHandler: (handlerContext) => {
      context = handlerContext;
      return async () => {
        throw new Error("the bench runs its own function instances");
      };
    },
  });
  return { stack, context };
}

/** A proxy between the gateway and the adapter that records every endpoint call into `calls`. */
function startCountingProxy(adapterUrl: string, calls: EndpointCall[]): Promise<FaultProxy> {
  return FaultProxy.start({
    target: adapterUrl,
    random: new SeededRandom(1),
    onExchange: (exchange: ProxyExchange) => {
      const end = performance.now();
      calls.push({ status: exchange.status, startMs: end - exchange.upstreamMs, endMs: end });
    },
  });
}

/** `instances` decide handlers, each its own function instance with the bench's groups. */
function createInstances(context: StackHandlerContext, setup: BacklogBenchSetup): Promise<SqsBatchHandler[]> {
  return Promise.all(
    Array.from({ length: setup.instances }, () =>
      createLocalDecideHandler(context, {
        environment: { MAX_CONCURRENT_GROUPS: String(setup.maxConcurrentGroups) },
      }),
    ),
  );
}

/** A phase's wall time and CPU seconds by part ({@link measureCpu}). */
interface MeasuredPhase {
  wallS: number;
  cpu: CpuByPart;
}

/** The running parts a bench phase drives and measures. */
interface BenchRig {
  stack: LocalStack;
  handlers: readonly SqsBatchHandler[];
  /** The processes whose CPU seconds are measured, by part. */
  parts: Record<string, number | undefined>;
  /** The endpoint calls the counting proxy has seen since they were last cleared. */
  calls: EndpointCall[];
  policies: PolicySet;
  setup: BacklogBenchSetup;
}

/** Warms every part: the warm items through the pipeline, then the adapter alone on them. */
async function warmUp(rig: BenchRig, warmItems: readonly BacklogItem[]): Promise<MeasuredPhase> {
  const { stack, handlers, parts, policies, setup } = rig;
  const { stallMs, functionTimeoutMs, log } = setup;
  log(`warming up: ${warmItems.length} items through the pipeline, then the adapter alone`);
  return measureCpu(parts, async () => {
    const run = await drainThrough(stack, handlers, warmItems, { stallMs, functionTimeoutMs }, log);
    if (!run.drained) throw new Error("the warm-up backlog did not drain; see the progress lines");
    await adapterAlone(stack.adapterUrl, policies, warmItems);
  });
}

/** What the rounds have measured so far, added to round by round. */
interface RoundTotals {
  statuses: number[];
  sent: SentMessage[];
  deliveries: number;
  alone: AloneRun[];
  rounds: BacklogBenchReport["rounds"];
  measuredRounds: BacklogRound[];
  aloneCpu: CpuByPart;
  pipelineCpu: CpuByPart;
}

function emptyTotals(): RoundTotals {
  const zero = (): CpuByPart => ({ wall_s: 0 });
  return {
    statuses: [],
    sent: [],
    deliveries: 0,
    alone: [],
    rounds: [],
    measuredRounds: [],
    aloneCpu: zero(),
    pipelineCpu: zero(),
  };
}

/**
 * One round: the adapter alone and the pipeline on the round's backlog, in turn first (the alone
 * run first in even rounds), then the decided items counted from the table; adds it all to `totals`.
 */
async function runRound(
  rig: BenchRig,
  workload: BacklogWorkload,
  index: number,
  totals: RoundTotals,
): Promise<void> {
  const { stack, handlers, parts, calls, policies, setup } = rig;
  const { roundCount, instances, stallMs, functionTimeoutMs, log } = setup;
  const backlog = workload.roundItems[index] as BacklogItem[];
  const aloneFirst = index % 2 === 0;
  const measureAlone = async () => {
    log(
      `round ${index + 1}/${roundCount}: the adapter alone, ${distinctRequests(backlog)} requests, ${ADAPTER_CLIENTS} clients`,
    );
    const measured = await measureCpu(parts, () => adapterAlone(stack.adapterUrl, policies, backlog));
    totals.aloneCpu = addCpu(totals.aloneCpu, { wall_s: measured.wallS, ...measured.cpu });
    calls.length = 0;
    return measured.value;
  };
  const before = aloneFirst ? await measureAlone() : undefined;
  log(
    `round ${index + 1}/${roundCount}: the pipeline, ${backlog.length} items on the queue at once, ${instances} instances`,
  );
  const offset = workload.items.indexOf(backlog[0] as BacklogItem);
  const piped = await measureCpu(parts, () =>
    drainThrough(stack, handlers, backlog, { stallMs, functionTimeoutMs }, log),
  );
  totals.pipelineCpu = addCpu(totals.pipelineCpu, { wall_s: piped.wallS, ...piped.cpu });
  const endpoint = profileEndpointCalls(calls, piped.value.startedMs, piped.value.lastEndMs);
  const functions = profileInvocations(
    piped.value.invocations,
    piped.value.unheldMs,
    piped.value.startedMs,
    piped.value.lastEndMs,
  );
  totals.statuses.push(...calls.map((call) => call.status));
  calls.length = 0;
  totals.sent.push(...piped.value.sent.map((message) => ({ ...message, item: message.item + offset })));
  totals.deliveries += piped.value.deliveries;
  const aloneRun = before ?? (await measureAlone());
  totals.alone.push(aloneRun);
  const decided = (await scanOutcomeRows(stack.clients.dynamodb, stack.table)).filter(
    (row) => String(row.id).startsWith(`backlog-r${index}-`) && row.status !== "rejected",
  ).length;
  const drainS = piped.value.drainS;
  totals.measuredRounds.push({
    items: backlog.length,
    decided,
    drainS,
    aloneDecisionsPerS: aloneRun.decisionsPerS,
  });
  const rate = decided / drainS;
  totals.rounds.push({
    items: backlog.length,
    order: aloneFirst ? "alone first" : "pipeline first",
    drain_s: round(drainS),
    pipeline_decisions_per_s: round(rate),
    adapter_alone_decisions_per_s: round(aloneRun.decisionsPerS),
    ratio: round(rate / aloneRun.decisionsPerS),
    endpoint,
    functions,
  });
  log(
    `round ${index + 1}/${roundCount}: pipeline ${round(rate)}/s, alone ${round(aloneRun.decisionsPerS)}/s, ratio ${round(rate / aloneRun.decisionsPerS)}; ` +
      `endpoint busy ${endpoint.busy_share} of the drain, ${endpoint.mean_in_flight} calls in flight on average; ` +
      `functions busy ${functions.busy_share}, queue held with no invocation ${functions.unheld_s} s; load average ${fmt(loadavg())}`,
  );
}

/** The chaos checker on the table, the DLQ and the queue: every item ended exactly once. */
async function checkEveryItemEnded(
  stack: LocalStack,
  items: readonly BacklogItem[],
  sent: SentMessage[],
): Promise<ChaosCheck> {
  return checkChaosInvariant({
    items: items.map(toWorkloadItem),
    sent,
    rows: (await scanOutcomeRows(stack.clients.dynamodb, stack.table)).filter((row) =>
      String(row.id).startsWith("backlog-"),
    ),
    deadLetters: await readDeadLetters(stack.clients.sqs, stack.dlqUrl),
    failureReasons: new Map(),
    queueRemaining: await queueDepth(stack.clients.sqs, stack.queueUrl),
  });
}

/** Everything a report is made of. */
interface ReportInputs {
  options: BacklogBenchOptions;
  setup: BacklogBenchSetup;
  startedAt: Date;
  loadStart: number[];
  busy: readonly ChildProcess[];
  workload: BacklogWorkload;
  totals: RoundTotals;
  check: ChaosCheck;
  warm: MeasuredPhase;
}

/** The summary's numbers first, then how they were measured (its duration and load taken now). */
function buildReport(inputs: ReportInputs): BacklogBenchReport {
  const { options, setup, startedAt, loadStart, busy, workload, totals, check, warm } = inputs;
  const { items, roundItems, modelPath } = workload;
  const summary = summarizeBacklog({
    items: items.length,
    decided: check.counts.decided,
    deadLettered: check.counts.deadLettered,
    lost: check.counts.lost,
    notDrained: check.counts.notDrained,
    endpointStatuses: totals.statuses,
    deliveries: totals.deliveries,
    rounds: totals.measuredRounds,
  });
  return {
    ...summary,
    command: commandOf(options, setup.quick),
    started_at: startedAt.toISOString(),
    duration_s: round((Date.now() - startedAt.getTime()) / 1000),
    quick: setup.quick,
    goal: BACKLOG_GOAL,
    goal_met: meetsBacklogGoal(summary),
    machine: {
      ...describeMachine(),
      load_average_start: loadStart.map(round),
      load_average_end: loadavg().map(round),
      busy_processes: busy.length,
    },
    model: modelPath,
    workload: {
      policies: countBy(items, (item) => item.policy),
      shared_items: items.filter((item) => item.shared).length,
      single_items: items.filter((item) => !item.shared).length,
      distinct_requests: requestsOf(roundItems),
    },
    setup: {
      instances: setup.instances,
      max_concurrent_groups: setup.maxConcurrentGroups,
      batch_size: BATCH_SIZE,
      maximum_batching_window_ms: BATCHING_WINDOW_MS,
      function_timeout_ms: setup.functionTimeoutMs,
      visibility_timeout_s: setup.visibilityTimeoutSeconds,
      max_receive_count: MAX_RECEIVE_COUNT,
      adapter_admission: { ...ADAPTER_ADMISSION },
      sizing: setup.sizing,
      calls_in_flight: setup.instances * setup.maxConcurrentGroups,
    },
    adapter_alone: {
      runs: totals.alone.map((run) => ({
        wall_s: round(run.wallS),
        decisions_per_s: round(run.decisionsPerS),
        requests: run.requests,
      })),
      clients: ADAPTER_CLIENTS,
    },
    rounds: totals.rounds,
    endpoint_statuses: countBy(totals.statuses, String),
    check: { ok: check.ok, counts: check.counts, violations: check.violations },
    cpu_seconds: {
      warm_up: { wall_s: warm.wallS, ...warm.cpu },
      adapter_alone: totals.aloneCpu,
      pipeline: totals.pipelineCpu,
    },
  };
}

/** Writes `backlog-<timestamp>.json` into `outDir` (default `lab/bench/results` under the working folder). */
async function writeReport(
  report: BacklogBenchReport,
  outDir: string | undefined,
  startedAt: Date,
): Promise<{ report: BacklogBenchReport; jsonPath: string }> {
  const folder = outDir ?? join(process.cwd(), "lab", "bench", "results");
  await mkdir(folder, { recursive: true });
  const jsonPath = join(folder, `backlog-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return { report, jsonPath };
}

/** Sums two phases' CPU seconds part by part (a part unmeasured in either stays unmeasured). */
function addCpu(a: CpuByPart, b: CpuByPart): CpuByPart {
  const sum: CpuByPart = { wall_s: round((a.wall_s ?? 0) + (b.wall_s ?? 0)) };
  for (const part of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (part === "wall_s") continue;
    const x = a[part];
    const y = b[part];
    sum[part] = x === null || y === null ? null : round((x ?? 0) + (y ?? 0));
  }
  return sum;
}

/** What draining one backlog through the pipeline saw. */
interface DrainRun {
  sent: SentMessage[];
  drained: boolean;
  /** From the pollers' start to the last delete. */
  drainS: number;
  /** Records handed to the handlers. */
  deliveries: number;
  /** `performance.now()` at the pollers' start and at the last delete. */
  startedMs: number;
  lastEndMs: number;
  /** Each invocation of a handler. */
  invocations: Invocation[];
  /** Time the queue held messages while no invocation ran, as the drain's polls saw it. */
  unheldMs: number;
}

/**
 * Puts every item on the work queue (SendMessageBatch, 10 at a time), then starts one event
 * source slot (concurrency 1) per handler and waits until the queue is empty and no batch runs —
 * or until nothing has ended for `stallMs` (then not drained). Stops the slots.
 */
async function drainThrough(
  stack: LocalStack,
  handlers: readonly SqsBatchHandler[],
  items: readonly BacklogItem[],
  settings: { stallMs: number; functionTimeoutMs: number },
  log: (line: string) => void,
): Promise<DrainRun> {
  const { stallMs, functionTimeoutMs } = settings;
  const sent: SentMessage[] = [];
  const chunks: BacklogItem[][] = [];
  for (let start = 0; start < items.length; start += 10) chunks.push(items.slice(start, start + 10));
  const offset = new Map(items.map((item, index) => [item, index]));
  // Eight sends at a time: the backlog lands at once, as a batch file's lines do.
  for (let start = 0; start < chunks.length; start += 8) {
    await Promise.all(
      chunks.slice(start, start + 8).map(async (chunk) => {
        const answer = await stack.clients.sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: stack.queueUrl,
            Entries: chunk.map((item, index) => ({ Id: String(index), MessageBody: item.body })),
          }),
        );
        if ((answer.Failed ?? []).length > 0) throw new Error(`SQS refused ${answer.Failed?.length} sends`);
        for (const entry of answer.Successful ?? []) {
          const item = chunk[Number(entry.Id)] as BacklogItem;
          sent.push({ messageId: entry.MessageId ?? "", item: offset.get(item) ?? -1 });
        }
      }),
    );
  }
  let deliveries = 0;
  let ended = 0;
  let inFlight = 0;
  let lastEndAt = performance.now();
  const invocations: Invocation[] = [];
  const started = performance.now();
  const pollers = handlers.map((handler) =>
    new SqsEventSourcePoller({
      sqs: stack.clients.sqs,
      queueUrl: stack.queueUrl,
      queueArn: stack.queueArn,
      region: stack.region,
      handler: (event, context) => {
        inFlight += 1;
        deliveries += event.Records.length;
        const startMs = performance.now();
        return Promise.resolve(handler(event, context)).finally(() => {
          inFlight -= 1;
          invocations.push({ startMs, endMs: performance.now(), records: event.Records.length });
        });
      },
      functionTimeoutMs,
      waitTimeSeconds: 1,
      batchSize: BATCH_SIZE,
      maximumBatchingWindowMs: BATCHING_WINDOW_MS,
      maximumConcurrency: 1,
      onBatch: ({ outcome }) => {
        if (outcome.succeeded.length > 0) lastEndAt = performance.now();
        ended += outcome.succeeded.length;
      },
    }).start(),
  );
  const progress = setInterval(
    () =>
      log(
        `  ${((performance.now() - started) / 1000).toFixed(0)} s: ${ended} records ended, ${deliveries} delivered`,
      ),
    10_000,
  );
  let drained = false;
  let unheldMs = 0;
  try {
    let quiet = 0;
    let sampledAt = performance.now();
    let unheld = false;
    while (performance.now() - lastEndAt < stallMs) {
      const depth = await queueDepth(stack.clients.sqs, stack.queueUrl);
      // Between two polls the state is taken to be the earlier one's: a coarse sample (250 ms).
      const now = performance.now();
      if (unheld) unheldMs += now - sampledAt;
      sampledAt = now;
      unheld = depth > 0 && inFlight === 0;
      quiet = depth === 0 && inFlight === 0 ? quiet + 1 : 0;
      if (quiet >= 2) {
        drained = true;
        break;
      }
      await sleep(250);
    }
  } finally {
    clearInterval(progress);
    await Promise.all(pollers.map((poller) => poller.stop()));
  }
  return {
    sent,
    drained,
    drainS: (lastEndAt - started) / 1000,
    deliveries,
    startedMs: started,
    lastEndMs: lastEndAt,
    invocations,
    unheldMs,
  };
}

/** What the adapter alone did. */
interface AloneRun {
  wallS: number;
  decisionsPerS: number;
  requests: number;
}

/**
 * The adapter alone at saturation on the items: one System One request per distinct (policy,
 * state) — the fewest the items need, each answering every item that shares it — posted straight
 * to `/invocations` by {@link ADAPTER_CLIENTS} clients; decisions/s counts items.
 *
 * @throws Error when the adapter answers anything but 200.
 */
async function adapterAlone(
  adapterUrl: string,
  policies: PolicySet,
  items: readonly BacklogItem[],
): Promise<AloneRun> {
  const bodies = [...new Map(items.map((item) => [groupKey(item), item])).values()].map((item) => {
    const policy = policies.get(item.policy);
    if (policy === undefined) throw new Error(`the policy ${item.policy} is not loaded`);
    return buildSystemOneBody(policy, item.stateText);
  });
  let next = 0;
  const started = performance.now();
  const client = async (): Promise<void> => {
    while (next < bodies.length) {
      const body = bodies[next++] as string;
      const response = await fetch(new URL("invocations", `${adapterUrl}/`), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`the adapter answered ${response.status}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: ADAPTER_CLIENTS }, client));
  const wallS = (performance.now() - started) / 1000;
  return { wallS, decisionsPerS: items.length / wallS, requests: bodies.length };
}

function toWorkloadItem(item: BacklogItem): WorkloadItem {
  return {
    kind: "valid",
    origin: "unique",
    key: { policy: item.policy, id: item.id },
    stateSha256: item.stateSha256,
  };
}

/** The rounds' distinct requests, summed: each round is drained on its own. */
function requestsOf(rounds: readonly (readonly BacklogItem[])[]): number {
  return rounds.reduce((total, backlog) => total + distinctRequests(backlog), 0);
}

function distinctRequests(items: readonly BacklogItem[]): number {
  return new Set(items.map(groupKey)).size;
}

function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

function commandOf(options: BacklogBenchOptions, quick: boolean): string {
  return [
    "decisions bench --backlog",
    ...(options.items !== undefined ? [`--items ${options.items}`] : []),
    ...(quick ? ["--quick"] : []),
    ...(options.busy ? [`--busy ${options.busy}`] : []),
    ...(options.rounds !== undefined ? [`--rounds ${options.rounds}`] : []),
    ...(options.instances !== undefined ? [`--instances ${options.instances}`] : []),
    ...(options.maxConcurrentGroups !== undefined ? [`--groups ${options.maxConcurrentGroups}`] : []),
    ...(options.modelPath ? [`--model ${options.modelPath}`] : []),
  ].join(" ");
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function fmt(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(" ");
}
