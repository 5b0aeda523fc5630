import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { JobCompletedDetail, JobCounts } from "../../../contract/index.js";
import { LANES } from "../../../contract/lanes/lanes.js";
import { queueDepth } from "../../../local/eventSource/queueDepth.js";
import {
  createLocalDecideHandler,
  type IncidentTiming,
  type LocalStack,
  type ProbeItem,
  readDemoInputs,
  startLocalStack,
  timeIncidents,
} from "../../../local/index.js";
import { type BenchMachine, describeMachine } from "../describeMachine.js";
import { startBusyProcesses } from "../startBusyProcesses.js";
import { buildLanesWorkload, type LanesWorkload } from "./buildLanesWorkload.js";
import { type LanesSummary, summarizeLanes } from "./summarizeLanes.js";

/** Options of {@link runLanesBench}; every default is applied here. */
export interface LanesBenchOptions {
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
  /** A phase fails when nothing moves for this long. Default 300000 ms. */
  stallMs?: number;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** One bulk job phase: its lines, put → completed, and the job's counts. */
export interface BulkPhase {
  lines: number;
  ms: number;
  lines_per_s: number;
  job_id: string;
  status: string;
  counts: JobCounts;
  /** Rows of the outcomes table under this job's item ids, and the distinct ids its lines name. */
  outcome_rows: number;
  item_ids: number;
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
  settings: { lines: number; rate_per_s: number; interactive_alone: number };
  /** The p50 of the interactive items' `timings.endpoint_ms` alone: one evaluation, the goal's allowance. */
  evaluation_ms: number;
  bulk_alone: BulkPhase;
  bulk_during: BulkPhase;
  /** Interactive items sent during the drain, and how many were decided before the job completed. */
  interactive_during_sent: number;
  interactive_during_before_completion: number;
  dead_letter_queues: Record<string, number>;
  dead_lettered: number;
  lost: number;
  duplicated: number;
}

const KEY_PREFIX = "incoming/";

/**
 * `decisions bench --lanes`: on the local stack (both lanes, the generated tiny model), in one
 * run: (a) interactive items alone, one every 1/rate s; (b) a bulk job of `lines` lines alone
 * (put into the bucket: ingest makes it a job in the bulk lane); (c) the same job again (new item
 * ids) while interactive items arrive at the same rate until it completes. Reports interactive
 * send→outcome during ÷ alone, bulk lines/s (put → completed) during ÷ alone, and what was
 * dead-lettered (both DLQs, the jobs' counts), lost (interactive items without an outcome, job
 * lines that never ended or have no outcome row) or duplicated (the jobs' counts), with the goals.
 *
 * @throws Error when a phase makes no progress for `stallMs`, or ingest fails.
 */
export async function runLanesBench(
  options: LanesBenchOptions = {},
): Promise<{ report: LanesBenchReport; jsonPath?: string }> {
  const startedAt = new Date();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const quick = options.quick ?? false;
  const lines = options.lines ?? (quick ? 200 : 1000);
  const aloneCount = options.interactiveAlone ?? (quick ? 8 : 30);
  const stallMs = options.stallMs ?? 300_000;
  const busy = startBusyProcesses(options.busy ?? 0);
  try {
    const loadStart = loadavg();
    const modelPath = options.modelPath ?? (await ensureGeneratedModel("tiny-qwen3"));
    const workload = buildLanesWorkload(await readDemoInputs(join(packageRoot(), "events")), lines);
    log(
      `bench --lanes: ${aloneCount} interactive items alone, a ${lines}-line bulk job alone, the job again ` +
        `with interactive items; ${options.busy ?? 0} busy processes beside; load average ${fmt(loadStart)}`,
    );
    const completed: JobCompletedDetail[] = [];
    const ingestErrors: unknown[] = [];
    const stack = await startLocalStack({
      model: modelPath,
      adapterThreads: options.threads,
      log,
      createHandler: (context) => createLocalDecideHandler(context, { laneGroups: true }),
      ingest: {
        onIngested: (report) => {
          if (report.error !== undefined) ingestErrors.push(report.error);
        },
      },
      jobs: { onCompleted: (detail) => completed.push(detail) },
    });
    try {
      const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
      // warm-up: the model's first evaluations are not part of any phase; the last one is timed
      const warmItems = workload.interactive("warm", 3);
      for (const item of warmItems) await timeOne(stack, documents, item, stallMs);
      const warmEvaluationMs = median(await endpointTimes(stack, documents, warmItems.slice(1)));
      const rate =
        options.rate ?? Math.min(1, Math.round((1000 / (10 * Math.max(1, warmEvaluationMs))) * 1000) / 1000);
      log(`warm-up done: one evaluation ${warmEvaluationMs} ms; interactive items at ${rate}/s`);
      const send = (items: readonly ProbeItem[]) => sendSteadily(stack, documents, items, rate, stallMs);

      // (a) interactive alone
      const aloneItems = workload.interactive("alone", aloneCount);
      const alone = await Promise.all(await send(aloneItems));
      const evaluationMs = median(await endpointTimes(stack, documents, aloneItems));
      log(`interactive alone: ${describe(alone)}; one evaluation ${evaluationMs} ms`);

      // (b) the bulk job alone
      const bulkAlone = await runBulkPhase(
        stack,
        documents,
        workload,
        "bulk-alone",
        completed,
        ingestErrors,
        stallMs,
      );
      log(`bulk alone: ${bulkAlone.lines_per_s} lines/s`);

      // (c) the bulk job draining while interactive items arrive
      const succeededBefore = stack.lanes.bulk.poller.stats().succeeded;
      let draining = false;
      const duringTimings: Promise<IncidentTiming>[] = [];
      const bulkDuringPromise = runBulkPhase(
        stack,
        documents,
        workload,
        "bulk-during",
        completed,
        ingestErrors,
        stallMs,
        () => {
          draining = stack.lanes.bulk.poller.stats().succeeded > succeededBefore;
          return draining;
        },
      );
      let jobDone = false;
      void bulkDuringPromise.then(
        () => {
          jobDone = true;
        },
        () => {
          jobDone = true;
        },
      );
      await waitUntil(() => draining || jobDone, stallMs, "the bulk job's first lines to end");
      const duringItems = workload.interactive("during", 10_000);
      const t0 = Date.now();
      for (let index = 0; !jobDone && index < duringItems.length; index++) {
        const item = duringItems[index] as ProbeItem;
        await sleepUntil(t0 + (index * 1000) / rate);
        if (jobDone) break;
        duringTimings.push(timeOne(stack, documents, item, stallMs));
      }
      const bulkDuring = await bulkDuringPromise;
      const during = await Promise.all(duringTimings);
      const completedAt = Date.parse(
        completed.find((job) => job.job_id === bulkDuring.job_id)?.completed_at ?? "",
      );
      log(
        `interactive during the drain: ${describe(during)}; bulk during: ${bulkDuring.lines_per_s} lines/s`,
      );

      // checks: both DLQs, outcomes of every interactive item, the jobs' counts and rows
      const dlqs = Object.fromEntries(
        await Promise.all(
          LANES.map(async (lane) => [lane, await queueDepth(stack.clients.sqs, stack.lanes[lane].dlqUrl)]),
        ),
      ) as Record<string, number>;
      const jobs = [bulkAlone, bulkDuring];
      const deadLettered =
        Object.values(dlqs).reduce((sum, depth) => sum + depth, 0) +
        jobs.reduce((sum, job) => sum + job.counts.dead_lettered, 0);
      const interactiveLost = [...alone, ...during].filter((timing) => timing.decidedAt === undefined).length;
      const lost =
        interactiveLost +
        jobs.reduce(
          (sum, job) =>
            sum +
            Math.max(0, (job.counts.lines ?? job.lines) - job.counts.ended, job.item_ids - job.outcome_rows),
          0,
        );
      const duplicated = jobs.reduce((sum, job) => sum + job.counts.duplicates, 0);
      const summary = summarizeLanes({
        interactiveAlone: times(alone),
        interactiveDuring: times(during),
        bulkAloneLinesPerS: bulkAlone.lines_per_s,
        bulkDuringLinesPerS: bulkDuring.lines_per_s,
        evaluationMs,
        deadLettered,
        lost,
        duplicated,
      });
      const report: LanesBenchReport = {
        command: [
          "decisions bench --lanes",
          ...(quick ? ["--quick"] : []),
          ...(options.busy ? [`--busy ${options.busy}`] : []),
          ...(options.lines !== undefined ? [`--lines ${lines}`] : []),
          ...(options.rate !== undefined ? [`--rate ${rate}`] : []),
        ].join(" "),
        started_at: startedAt.toISOString(),
        duration_s: 0,
        machine: {
          ...describeMachine(),
          load_average_start: round2(loadStart),
          load_average_end: [],
          busy_processes: busy.length,
        },
        model: modelPath.replace(`${packageRoot()}/`, ""),
        settings: { lines, rate_per_s: rate, interactive_alone: aloneCount },
        evaluation_ms: evaluationMs,
        bulk_alone: bulkAlone,
        bulk_during: bulkDuring,
        interactive_during_sent: during.length,
        interactive_during_before_completion: during.filter(
          (timing) => timing.decidedAt !== undefined && timing.decidedAt < completedAt,
        ).length,
        dead_letter_queues: dlqs,
        dead_lettered: deadLettered,
        lost,
        duplicated,
        ...summary,
      };
      report.machine.load_average_end = round2(loadavg());
      report.duration_s = Math.round((Date.now() - startedAt.getTime()) / 1000);
      if (options.outDir === null) return { report };
      const outDir = options.outDir ?? join(packageRoot(), "lab", "bench", "results");
      await mkdir(outDir, { recursive: true });
      const stamp = startedAt.toISOString().replaceAll(":", "-").replaceAll(".", "-");
      const jsonPath = join(outDir, `lanes-${stamp}.json`);
      await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
      return { report, jsonPath };
    } finally {
      await stack.stop();
    }
  } finally {
    for (const child of busy) child.kill("SIGKILL");
  }
}

/** Starts one item's send→outcome timing every 1/rate s; resolves once all are started. */
async function sendSteadily(
  stack: LocalStack,
  documents: DynamoDBDocumentClient,
  items: readonly ProbeItem[],
  rate: number,
  timeoutMs: number,
): Promise<Promise<IncidentTiming>[]> {
  const t0 = Date.now();
  const timings: Promise<IncidentTiming>[] = [];
  for (const [index, item] of items.entries()) {
    await sleepUntil(t0 + (index * 1000) / rate);
    timings.push(timeOne(stack, documents, item, timeoutMs));
  }
  return timings;
}

async function timeOne(
  stack: LocalStack,
  documents: DynamoDBDocumentClient,
  item: ProbeItem,
  timeoutMs: number,
): Promise<IncidentTiming> {
  const [timing] = await timeIncidents({
    sqs: stack.clients.sqs,
    documents,
    queueUrl: stack.lanes.interactive.queueUrl,
    table: stack.table,
    items: [item],
    timeoutMs,
  });
  if (timing === undefined) throw new Error(`no timing for ${item.policy}/${item.id}`);
  return timing;
}

/**
 * Puts the job's object, waits for its "Decision Job Completed" and counts the outcome rows under
 * its item ids. `onPoll` is called at each poll until the job completes.
 */
async function runBulkPhase(
  stack: LocalStack,
  documents: DynamoDBDocumentClient,
  workload: LanesWorkload,
  tag: string,
  completed: readonly JobCompletedDetail[],
  ingestErrors: readonly unknown[],
  stallMs: number,
  onPoll?: () => void,
): Promise<BulkPhase> {
  const body = workload.bulkBody(tag);
  const key = `${KEY_PREFIX}lanes-${tag}.jsonl`;
  const source = `s3://${stack.bucket}/${key}`;
  const putAt = Date.now();
  await stack.clients.s3.send(
    new PutObjectCommand({ Bucket: stack.bucket, Key: key, Body: body, ContentType: "application/x-ndjson" }),
  );
  let lastSucceeded = -1;
  let movedAt = Date.now();
  for (;;) {
    onPoll?.();
    if (ingestErrors.length > 0) throw new Error(`ingest failed: ${String(ingestErrors[0])}`);
    const job = completed.find((detail) => detail.source === source);
    if (job !== undefined) {
      const ms = Date.parse(job.completed_at) - putAt;
      const bodyLines = body.split("\n").filter((line) => line.trim() !== "");
      const ids = new Set(bodyLines.flatMap((line) => idOf(line) ?? []));
      return {
        lines: bodyLines.length,
        ms,
        lines_per_s: Math.round((bodyLines.length / (ms / 1000)) * 10) / 10,
        job_id: job.job_id,
        status: job.status,
        counts: job.counts,
        outcome_rows: await countRows(stack, documents, `-${tag}`),
        item_ids: ids.size,
      };
    }
    const succeeded = stack.lanes.bulk.poller.stats().succeeded;
    if (succeeded !== lastSucceeded) {
      lastSucceeded = succeeded;
      movedAt = Date.now();
    }
    if (Date.now() - movedAt > stallMs) throw new Error(`the ${tag} job made no progress for ${stallMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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

/** Outcome rows whose id ends with `suffix` (a scan: the local table holds a few thousand rows). */
async function countRows(
  stack: LocalStack,
  documents: DynamoDBDocumentClient,
  suffix: string,
): Promise<number> {
  let rows = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({ TableName: stack.table, ProjectionExpression: "id", ExclusiveStartKey: start }),
    );
    rows += (page.Items ?? []).filter(
      (item) => typeof item.id === "string" && item.id.endsWith(suffix),
    ).length;
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return rows;
}

/** `timings.endpoint_ms` of each item's outcome. */
async function endpointTimes(
  stack: LocalStack,
  documents: DynamoDBDocumentClient,
  items: readonly ProbeItem[],
): Promise<number[]> {
  const out: number[] = [];
  for (const item of items) {
    const found = await documents.send(
      new GetCommand({ TableName: stack.table, Key: { policy: item.policy, id: item.id } }),
    );
    const ms = (found.Item?.timings as { endpoint_ms?: unknown } | undefined)?.endpoint_ms;
    if (typeof ms === "number") out.push(ms);
  }
  return out;
}

async function waitUntil(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function sleepUntil(at: number): Promise<void> {
  const wait = at - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

function times(timings: readonly IncidentTiming[]): number[] {
  return timings.flatMap((timing) =>
    timing.decidedAt === undefined ? [] : [timing.decidedAt - timing.sentAt],
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
}

function describe(timings: readonly IncidentTiming[]): string {
  const measured = times(timings).sort((a, b) => a - b);
  return `${measured.length}/${timings.length} decided, send→outcome ${measured[0] ?? "?"}–${measured.at(-1) ?? "?"} ms`;
}

function round2(values: number[]): number[] {
  return values.map((value) => Math.round(value * 100) / 100);
}

function fmt(values: number[]): string {
  return values.map((value) => value.toFixed(2)).join(", ");
}
