import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { Job, JobCompletedDetail, JobCounts, Lane } from "../../../contract/index.js";
import { LANES } from "../../../contract/lanes/lanes.js";
import { JobsReader } from "../../../core/jobs/index.js";
import { queueDepth } from "../../../local/eventSource/queueDepth.js";
import {
  createLocalDecideHandler,
  type LocalStack,
  readDemoInputs,
  startLocalStack,
} from "../../../local/index.js";
import { type BenchMachine, describeMachine } from "../describeMachine.js";
import { startBusyProcesses } from "../startBusyProcesses.js";
import { buildLanesWorkload, type LanesWorkload } from "./buildLanesWorkload.js";
import { InteractiveProbes } from "./InteractiveProbes.js";
import { type LanesSummary, summarizeLanes, summarizeLatency } from "./summarizeLanes.js";
import { type LaneEnds, tallyLaneEnds } from "./tallyLaneEnds.js";
import { waitForProgress } from "./waitForProgress.js";

/** Options of {@link runLanesBench}; every default is applied here. */
export interface LanesBenchOptions {
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Smaller run: default 200 lines and 8 interactive items alone (a few minutes on 2 idle cores). */
  quick?: boolean;
  /** Lines of the bulk job. Default 200 with `quick`, else 1000. */
  lines?: number;
  /**
   * Interactive items per second, alone and during the drain. Default: one per 10 evaluations
   * timed at the warm-up (at most 1/s), so that interactive work takes about a tenth of one
   * evaluation slot — the bulk goal (≥ 0.9 of alone) allows no more — whatever the machine's load.
   */
  rate?: number;
  /** Interactive items sent alone. Default 8 with `quick`, else 30. */
  interactiveAlone?: number;
  /** CPU-bound processes beside the whole run. Default 0. */
  busy?: number;
  /** GGUF to serve. Default: the generated tiny-qwen3. */
  modelPath?: string;
  /** The adapter's CPU threads. Default: the adapter's. */
  threads?: number;
  /** Folder for `lanes-<timestamp>.json`; null writes nothing. Default lab/bench/results. */
  outDir?: string | null;
  /**
   * A wait (a job's lines, the interactive items' outcomes) goes on while outcomes keep arriving,
   * and gives up after this long without one; what had not ended then is reported `not ended`.
   * Default 600000 ms.
   */
  stallMs?: number;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** One bulk job phase: its lines, put → completed, and the job's counts. */
export interface BulkPhase {
  lines: number;
  /** Put → the job's `completed_at`; for a job that did not complete, put → its last progress. */
  ms: number;
  /** `lines` ÷ `ms`; for a job that did not complete, its ended lines ÷ `ms`. */
  lines_per_s: number;
  job_id: string;
  /** The job's status as the jobs table holds it at the end of the phase. */
  status: string;
  /** Whether the job completed (its "Decision Job Completed" event came). */
  completed: boolean;
  counts: JobCounts;
  /** Rows of the outcomes table under this job's item ids, and the distinct ids its lines name. */
  outcome_rows: number;
  item_ids: number;
  /**
   * The job's lines' evaluations: p50 and p95 of their outcomes' `timings.endpoint_ms`, the time
   * one bulk call holds the engine (an interactive call arriving then waits for at most one).
   */
  evaluation_ms: { p50: number; p95: number };
}

/** p50 and p95 (nearest rank) of endpoint times; 0 for none. */
function evaluationOf(endpointMs: readonly number[]): { p50: number; p95: number } {
  if (endpointMs.length === 0) return { p50: 0, p95: 0 };
  const { p50_ms, p95_ms } = summarizeLatency(endpointMs);
  return { p50: p50_ms, p95: p95_ms };
}

/** What each lane holds at the end of the run, and where its items without an outcome are. */
export interface LaneCheck extends LaneEnds {
  /** Work items sent to the lane (interactive: items; bulk: the jobs' distinct item ids). */
  items: number;
  /** Of them, those with a row in the outcomes table. */
  outcomes: number;
  /** Messages the lane's work queue still held. */
  queued: number;
}

/** Everything one lanes bench run measured; written as `lanes-<timestamp>.json`. */
export interface LanesBenchReport extends LanesSummary {
  command: string;
  started_at: string;
  duration_s: number;
  machine: BenchMachine & {
    load_average_start: number[];
    load_average_end: number[];
    busy_processes: number;
  };
  model: string;
  settings: {
    lines: number;
    rate_per_s: number;
    /** `warm-up`: one item per 10 evaluations timed at the warm-up, at most 1/s; `--rate`: given. */
    rate_from: "warm-up" | "--rate";
    /** The warm-up's evaluation (median `timings.endpoint_ms`) the default rate was derived from. */
    warm_up_evaluation_ms: number;
    interactive_alone: number;
    stall_ms: number;
  };
  /** The p50 of the interactive items' `timings.endpoint_ms` alone: one evaluation, the goal's allowance. */
  evaluation_ms: number;
  bulk_alone: BulkPhase;
  bulk_during: BulkPhase;
  /** Interactive items sent during the drain, and how many were decided before the job completed. */
  interactive_during_sent: number;
  interactive_during_before_completion: number;
  /** Per lane: items, outcomes, queued, dead-lettered, not ended, lost — from the queues, DLQs and outcomes table. */
  lanes: Record<Lane, LaneCheck>;
  dead_lettered: number;
  not_ended: number;
  lost: number;
  duplicated: number;
}

const KEY_PREFIX = "incoming/";
const JOBS_TABLE = "jobs";
const DEFAULT_STALL_MS = 600_000;
/** Between two reads of a job's counts or of the interactive items' outcomes. */
const POLL_MS = 250;

/** The running stack and what every phase reads. */
interface LanesRig {
  stack: LocalStack;
  documents: DynamoDBDocumentClient;
  jobs: JobsReader;
  workload: LanesWorkload;
  /** "Decision Job Completed" events, as they come. */
  completed: JobCompletedDetail[];
  ingestErrors: unknown[];
  stallMs: number;
  log: (line: string) => void;
}

/**
 * `decisions bench --lanes`: on the local stack (both lanes, the generated tiny model), in one
 * run: (a) interactive items alone, one every 1/rate s; (b) a bulk job of `lines` lines alone
 * (put into the bucket: ingest makes it a job in the bulk lane); (c) the same job again (new item
 * ids) while interactive items arrive at the same rate until it completes. Every wait lasts as
 * long as outcomes keep arriving (given up after `stallMs` without one). Reports interactive
 * send→outcome during ÷ alone, bulk lines/s (put → completed) during ÷ alone, and per lane, from
 * the real queues, DLQs and outcomes table: dead-lettered (DLQ messages), not ended (no outcome
 * yet, still queued when the run stopped waiting), lost (no outcome, in no queue or DLQ), and the
 * jobs' duplicates, with the goals.
 *
 * @throws Error when ingest fails.
 */
export async function runLanesBench(
  options: LanesBenchOptions,
): Promise<{ report: LanesBenchReport; jsonPath?: string }> {
  const startedAt = new Date();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const quick = options.quick ?? false;
  const lines = options.lines ?? (quick ? 200 : 1000);
  const aloneCount = options.interactiveAlone ?? (quick ? 8 : 30);
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const busy = startBusyProcesses(options.busy ?? 0);
  try {
    const loadStart = loadavg();
    const modelPath = options.modelPath ?? (await ensureGeneratedModel("tiny-qwen3"));
    const workload = buildLanesWorkload(await readDemoInputs(join(packageRoot(), "events")), lines);
    log(
      `bench --lanes: ${aloneCount} interactive items alone, a ${lines}-line bulk job alone, the job again ` +
        `with interactive items; ${busy.length} busy processes beside; load average ${fmt(loadStart)}`,
    );
    const rig = await startLanesRig(workload, modelPath, options, stallMs, log);
    try {
      const probes = (): InteractiveProbes =>
        new InteractiveProbes({
          sqs: rig.stack.clients.sqs,
          documents: rig.documents,
          queueUrl: rig.stack.lanes.interactive.queueUrl,
          table: rig.stack.table,
        });
      const warm = probes();
      const warmEvaluationMs = await warmUp(rig, warm);
      const rate =
        options.rate ?? Math.min(1, Math.round((1000 / (10 * Math.max(1, warmEvaluationMs))) * 1000) / 1000);
      log(
        `warm-up done: one evaluation ${warmEvaluationMs} ms; interactive items at ${rate}/s` +
          (options.rate === undefined ? " (one per 10 evaluations, at most 1/s)" : " (--rate)"),
      );

      const alone = probes();
      await interactiveAlone(rig, alone, aloneCount, rate);
      const evaluationMs = alone.medianEndpointMs();
      log(`interactive alone: ${describe(alone)}; one evaluation ${evaluationMs} ms`);

      const bulkAlone = await runBulkPhase(rig, "bulk-alone");
      log(`bulk alone: ${describeBulk(bulkAlone)}`);

      const during = probes();
      const bulkDuring = await bulkWithInteractive(rig, during, rate);
      log(`interactive during the drain: ${describe(during)}; bulk during: ${describeBulk(bulkDuring)}`);

      const checks = await checkLanes(rig, [warm, alone, during], [bulkAlone, bulkDuring]);
      const completedAt = Date.parse(
        rig.completed.find((job) => job.job_id === bulkDuring.job_id)?.completed_at ?? "",
      );
      const report = buildReport({
        options,
        quick,
        startedAt,
        loadStart,
        busyProcesses: busy.length,
        modelPath,
        settings: {
          lines,
          rate_per_s: rate,
          rate_from: options.rate === undefined ? "warm-up" : "--rate",
          warm_up_evaluation_ms: warmEvaluationMs,
          interactive_alone: aloneCount,
          stall_ms: stallMs,
        },
        evaluationMs,
        alone,
        during,
        bulkAlone,
        bulkDuring,
        completedAt,
        checks,
      });
      return await writeReport(report, options.outDir, startedAt);
    } finally {
      await rig.stack.stop();
    }
  } finally {
    for (const child of busy) child.kill("SIGKILL");
  }
}

/** Starts the local stack with both lanes, ingest and jobs; collects completions and ingest errors. */
async function startLanesRig(
  workload: LanesWorkload,
  modelPath: string,
  options: { env: Readonly<NodeJS.ProcessEnv>; threads?: number },
  stallMs: number,
  log: (line: string) => void,
): Promise<LanesRig> {
  const completed: JobCompletedDetail[] = [];
  const ingestErrors: unknown[] = [];
  const stack = await startLocalStack({
    env: options.env,
    model: modelPath,
    adapterThreads: options.threads,
    log,
    createHandler: (context) => createLocalDecideHandler(context, { laneGroups: true }),
    ingest: {
      onIngested: (report) => {
        if (report.error !== undefined) ingestErrors.push(report.error);
      },
    },
    jobs: { table: JOBS_TABLE, onCompleted: (detail) => completed.push(detail) },
  });
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const jobs = new JobsReader({ client: documents, tableName: JOBS_TABLE });
  return { stack, documents, jobs, workload, completed, ingestErrors, stallMs, log };
}

/**
 * Three interactive items, one after the other: the model's first evaluations are in no phase.
 * Returns the median `endpoint_ms` of the last two (the default rate is derived from it).
 */
async function warmUp(rig: LanesRig, warm: InteractiveProbes): Promise<number> {
  for (const item of rig.workload.interactive("warm", 3)) {
    await warm.send(item);
    await waitForOutcomes(rig, warm);
  }
  const [, ...timed] = warm.timings;
  return median(timed.flatMap((timing) => timing.endpointMs ?? []));
}

/** Sends `count` interactive items at `rate` with nothing else in the pipeline; waits for their outcomes. */
async function interactiveAlone(
  rig: LanesRig,
  probes: InteractiveProbes,
  count: number,
  rate: number,
): Promise<void> {
  const t0 = Date.now();
  for (const [index, item] of rig.workload.interactive("alone", count).entries()) {
    await sleepUntil(t0 + (index * 1000) / rate);
    await probes.send(item);
  }
  await waitForOutcomes(rig, probes);
}

/**
 * Puts the bulk job again (new item ids); once its first lines have ended, sends interactive
 * items at `rate` until the job's phase ends; then waits for the items' outcomes.
 */
async function bulkWithInteractive(
  rig: LanesRig,
  probes: InteractiveProbes,
  rate: number,
): Promise<BulkPhase> {
  let draining = false;
  let phaseEnded = false;
  const phase = runBulkPhase(rig, "bulk-during", (job) => {
    draining ||= (job?.counts.ended ?? 0) > 0;
  });
  const markEnded = () => {
    phaseEnded = true;
  };
  // Only marks the end: the phase's result or error is taken by `await phase` below.
  void phase.then(markEnded, markEnded);
  // The phase itself is bounded by progress: waiting on it bounds this loop.
  while (!draining && !phaseEnded) await sleep(50);
  const items = rig.workload.interactive("during", 100_000);
  const t0 = Date.now();
  try {
    for (let index = 0; !phaseEnded && index < items.length; index++) {
      await sleepUntil(t0 + (index * 1000) / rate);
      if (phaseEnded) break;
      await probes.send(items[index] as (typeof items)[number]);
    }
  } catch (error) {
    // The job's phase is still running: let it end before the stack stops under it.
    await Promise.allSettled([phase]);
    throw error;
  }
  const bulk = await phase;
  await waitForOutcomes(rig, probes);
  return bulk;
}

/** Waits for the outcomes of every item sent, as long as they keep coming. */
async function waitForOutcomes(rig: LanesRig, probes: InteractiveProbes): Promise<void> {
  const wait = await waitForProgress({
    done: () => probes.decided === probes.sent,
    progress: () => probes.refresh(),
    stallMs: rig.stallMs,
    pollMs: POLL_MS,
  });
  if (!wait.done)
    rig.log(
      `gave up after ${rig.stallMs} ms without a new outcome: ${probes.sent - probes.decided} of ${probes.sent} interactive items have none`,
    );
}

/**
 * Puts the job's object and follows its job until its "Decision Job Completed" event, for as long
 * as its lines keep being read or ending; counts the outcome rows under its item ids. `onJob` is
 * told of the job at each poll.
 *
 * @throws Error when ingest fails, or when no job was ever made of the object.
 */
async function runBulkPhase(
  rig: LanesRig,
  tag: string,
  onJob?: (job: Job | undefined) => void,
): Promise<BulkPhase> {
  const body = rig.workload.bulkBody(tag);
  const key = `${KEY_PREFIX}lanes-${tag}.jsonl`;
  const source = `s3://${rig.stack.bucket}/${key}`;
  const putAt = Date.now();
  await rig.stack.clients.s3.send(
    new PutObjectCommand({
      Bucket: rig.stack.bucket,
      Key: key,
      Body: body,
      ContentType: "application/x-ndjson",
    }),
  );
  let jobId: string | undefined;
  const readJob = async (): Promise<Job | undefined> => {
    jobId ??= (await rig.jobs.newest(10)).find((job) => job.source === source)?.job_id;
    return jobId === undefined ? undefined : await rig.jobs.find(jobId);
  };
  const completion = () => rig.completed.find((detail) => detail.source === source);
  const wait = await waitForProgress({
    done: () => completion() !== undefined || rig.ingestErrors.length > 0,
    progress: async () => {
      const job = await readJob();
      onJob?.(job);
      return job === undefined ? 0 : 1 + job.counts.sent + job.counts.rejected_at_ingest + job.counts.ended;
    },
    stallMs: rig.stallMs,
    pollMs: POLL_MS,
  });
  if (rig.ingestErrors.length > 0) throw new Error(`ingest failed: ${String(rig.ingestErrors[0])}`);
  const job = await readJob();
  if (job === undefined)
    throw new Error(`no job was made of ${source} in ${wait.waitedMs} ms: is ingest running?`);
  const event = completion();
  if (event === undefined)
    rig.log(
      `gave up on the ${tag} job after ${rig.stallMs} ms without progress: ${job.counts.ended} lines ended`,
    );
  const bodyLines = body.split("\n").filter((line) => line.trim() !== "");
  const ms = event !== undefined ? Date.parse(event.completed_at) - putAt : Date.now() - putAt - rig.stallMs;
  const linesDone = event !== undefined ? bodyLines.length : job.counts.ended;
  const rows = await readRows(rig, `-${tag}`);
  return {
    lines: bodyLines.length,
    ms,
    lines_per_s: ms > 0 ? Math.round((linesDone / (ms / 1000)) * 10) / 10 : 0,
    job_id: job.job_id,
    status: job.status,
    completed: event !== undefined,
    counts: job.counts,
    outcome_rows: rows.rows,
    evaluation_ms: evaluationOf(rows.endpointMs),
    item_ids: new Set(bodyLines.flatMap((line) => idOf(line) ?? [])).size,
  };
}

/**
 * Where each lane's items ended, from the real queues, DLQs and outcomes table: interactive items
 * and the jobs' item ids without an outcome row, told apart by {@link tallyLaneEnds}.
 */
async function checkLanes(
  rig: LanesRig,
  interactive: readonly InteractiveProbes[],
  bulk: readonly BulkPhase[],
): Promise<Record<Lane, LaneCheck>> {
  for (const probes of interactive) await probes.refresh();
  const items: Record<Lane, { items: number; outcomes: number }> = {
    interactive: {
      items: interactive.reduce((sum, probes) => sum + probes.sent, 0),
      outcomes: interactive.reduce((sum, probes) => sum + probes.decided, 0),
    },
    bulk: {
      items: bulk.reduce((sum, phase) => sum + phase.item_ids, 0),
      outcomes: bulk.reduce((sum, phase) => sum + phase.outcome_rows, 0),
    },
  };
  const entries = await Promise.all(
    LANES.map(async (lane): Promise<[Lane, LaneCheck]> => {
      const queued = await queueDepth(rig.stack.clients.sqs, rig.stack.lanes[lane].queueUrl);
      const deadLettered = await queueDepth(rig.stack.clients.sqs, rig.stack.lanes[lane].dlqUrl);
      const { items: sent, outcomes } = items[lane];
      const ends = tallyLaneEnds({ withoutOutcome: sent - outcomes, queued, deadLettered });
      return [lane, { items: sent, outcomes, queued, ...ends }];
    }),
  );
  return Object.fromEntries(entries) as Record<Lane, LaneCheck>;
}

interface ReportInputs {
  options: LanesBenchOptions;
  quick: boolean;
  startedAt: Date;
  loadStart: number[];
  busyProcesses: number;
  modelPath: string;
  settings: LanesBenchReport["settings"];
  evaluationMs: number;
  alone: InteractiveProbes;
  during: InteractiveProbes;
  bulkAlone: BulkPhase;
  bulkDuring: BulkPhase;
  /** The during job's `completed_at` (epoch ms; NaN when it did not complete). */
  completedAt: number;
  checks: Record<Lane, LaneCheck>;
}

/** The report: settings, machine, phases, per-lane checks, ratios and goals. */
function buildReport(inputs: ReportInputs): LanesBenchReport {
  const { options, checks, bulkAlone, bulkDuring } = inputs;
  const sum = (field: keyof LaneEnds) => LANES.reduce((total, lane) => total + checks[lane][field], 0);
  const deadLettered = sum("dead_lettered");
  const notEnded = sum("not_ended");
  const lost = sum("lost");
  const duplicated = bulkAlone.counts.duplicates + bulkDuring.counts.duplicates;
  const summary = summarizeLanes({
    interactiveAlone: inputs.alone.sendToOutcomeMs(),
    interactiveDuring: inputs.during.sendToOutcomeMs(),
    bulkAloneLinesPerS: bulkAlone.lines_per_s,
    bulkDuringLinesPerS: bulkDuring.lines_per_s,
    evaluationMs: inputs.evaluationMs,
    runningEvaluationMs: bulkAlone.evaluation_ms.p95,
    deadLettered,
    notEnded,
    lost,
    duplicated,
  });
  return {
    command: [
      "decisions bench --lanes",
      ...(inputs.quick ? ["--quick"] : []),
      ...(options.busy ? [`--busy ${options.busy}`] : []),
      ...(options.lines !== undefined ? [`--lines ${inputs.settings.lines}`] : []),
      ...(options.rate !== undefined ? [`--rate ${inputs.settings.rate_per_s}`] : []),
    ].join(" "),
    started_at: inputs.startedAt.toISOString(),
    duration_s: Math.round((Date.now() - inputs.startedAt.getTime()) / 1000),
    machine: {
      ...describeMachine(),
      load_average_start: round2(inputs.loadStart),
      load_average_end: round2(loadavg()),
      busy_processes: inputs.busyProcesses,
    },
    model: inputs.modelPath.replace(`${packageRoot()}/`, ""),
    settings: inputs.settings,
    evaluation_ms: inputs.evaluationMs,
    bulk_alone: bulkAlone,
    bulk_during: bulkDuring,
    interactive_during_sent: inputs.during.sent,
    interactive_during_before_completion: inputs.during.timings.filter(
      (timing) => timing.decidedAt !== undefined && timing.decidedAt < inputs.completedAt,
    ).length,
    lanes: checks,
    dead_lettered: deadLettered,
    not_ended: notEnded,
    lost,
    duplicated,
    ...summary,
  };
}

/** Writes `lanes-<timestamp>.json` unless `outDir` is null. */
async function writeReport(
  report: LanesBenchReport,
  outDir: string | null | undefined,
  startedAt: Date,
): Promise<{ report: LanesBenchReport; jsonPath?: string }> {
  if (outDir === null) return { report };
  const folder = outDir ?? join(packageRoot(), "lab", "bench", "results");
  await mkdir(folder, { recursive: true });
  const stamp = startedAt.toISOString().replaceAll(":", "-").replaceAll(".", "-");
  const jsonPath = join(folder, `lanes-${stamp}.json`);
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return { report, jsonPath };
}

function idOf(line: string): string | undefined {
  try {
    const item: unknown = JSON.parse(line);
    const id = (item as { id?: unknown } | null)?.id;
    return typeof id === "string" ? id : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Outcome rows whose id ends with `suffix` and their `timings.endpoint_ms` (a scan: the local
 * table holds a few thousand rows).
 */
async function readRows(rig: LanesRig, suffix: string): Promise<{ rows: number; endpointMs: number[] }> {
  let rows = 0;
  const endpointMs: number[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await rig.documents.send(
      new ScanCommand({
        TableName: rig.stack.table,
        ProjectionExpression: "id, timings",
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (typeof item.id !== "string" || !item.id.endsWith(suffix)) continue;
      rows += 1;
      const ms = (item.timings as { endpoint_ms?: unknown } | undefined)?.endpoint_ms;
      if (typeof ms === "number") endpointMs.push(ms);
    }
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return { rows, endpointMs };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function sleepUntil(at: number): Promise<void> {
  const wait = at - Date.now();
  if (wait > 0) await sleep(wait);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
}

function describe(probes: InteractiveProbes): string {
  const measured = probes.sendToOutcomeMs().sort((a, b) => a - b);
  return `${measured.length}/${probes.sent} decided, send→outcome ${measured[0] ?? "?"}–${measured.at(-1) ?? "?"} ms`;
}

function describeBulk(phase: BulkPhase): string {
  return `${phase.lines_per_s} lines/s${phase.completed ? "" : ` (not completed: ${phase.counts.ended}/${phase.lines} lines ended)`}`;
}

function round2(values: number[]): number[] {
  return values.map((value) => Math.round(value * 100) / 100);
}

function fmt(values: number[]): string {
  return values.map((value) => value.toFixed(2)).join(", ");
}
