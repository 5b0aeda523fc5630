import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { Job, JobCounts } from "../../../contract/index.js";
import { RetryPolicy } from "../../../core/common/index.js";
import { JobLedger, JobsReader } from "../../../core/jobs/index.js";
import { renderChart } from "../../../evaluation/charts/renderChart.js";
import { createLocalDecideHandler, type StackHandlerContext, startLocalStack } from "../../../local/index.js";
import { type BenchMachine, describeMachine } from "../describeMachine.js";
import { buildJobObject } from "./buildJobObject.js";
import type { JobStepReport, JobStepStack } from "./jobStepProtocol.js";
import { type JobStep, startJobStep } from "./startJobStep.js";

/** Options of {@link runJobBench}. */
export interface JobBenchOptions {
  /** The environment DynamoDB Local and the adapter start from: the entry point's (`process.env`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Lines of the object. Default 20000. */
  lines?: number;
  /** Distinct states the valid lines cycle through, in runs of {@link run} lines. Default 20. */
  distinctStates?: number;
  /** Every n-th line not JSON. Default 50. */
  invalidEvery?: number;
  /** Lines in a row with the same state. Default 100 (one batch's worth). */
  run?: number;
  /**
   * Records per decide invocation (the CDK app's `batchSize`), gathered for at most 1 s (its
   * `batchingWindowSeconds` default); 2 invocations at once. Default 100.
   */
  batchSize?: number;
  /** GGUF to serve. Default: the generated tiny-qwen3 (generated once, then cached). */
  modelPath?: string;
  /** llama.cpp threads of the adapter. Default: the adapter's. */
  threads?: number;
  /** Bytes per uploaded part of the results writer. Default: the writer's (8 MiB). */
  partBytes?: number;
  /** Where the JSON and SVG go. Default `lab/bench/results`; null: nothing is written. */
  outDir?: string | null;
  /** Gives up when the job's ended count does not move for this long. Default 300000 ms. */
  stallMs?: number;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** A child process's peak RSS: at the end of its step, and its growth over the peak when the step began. */
export interface StepMemory {
  peak_rss_mib: number;
  growth_mib: number;
}

/** Everything one job bench run measured; written as `job-<timestamp>.json`. */
export interface JobBenchReport {
  command: string;
  started_at: string;
  duration_s: number;
  machine: BenchMachine & { load_average_start: number[]; load_average_end: number[] };
  model: string;
  object: { lines: number; bytes: number; distinct_states: number; invalid_lines: number };
  /** The decide function's event source: records per invocation, invocations at once. */
  event_source: { batch_size: number; maximum_concurrency: number };
  ingest: {
    ms: number;
    lines_per_s: number;
    invocations: number;
    sent: number;
    rejected: number;
    memory: StepMemory;
  };
  drain: {
    /** From the PutObject to the first counted line end, and to `ended_at`. */
    first_outcome_after_ms: number;
    ended_after_ms: number;
    /** Lines ended ÷ the time from the first to the last line end. */
    lines_per_s: number;
  };
  results: {
    /** The writer's `write()`, in its own process (read every line item, upload, manifest, final status). */
    write_ms: number;
    /** `ended_at` → `completed_at` of the job: the write plus the bench noticing the end (≤ its poll). */
    ended_to_completed_ms: number;
    result_bytes: number;
    part_bytes: number | null;
    memory: StepMemory;
  };
  job: { job_id: string; status: string; counts: JobCounts; results_uri: string | null };
  /** The PutObject to `completed_at`. */
  total_ms: number;
  /** Lines ended over time (s since the PutObject), sampled by the bench's poll. */
  progress: { s: number; ended: number }[];
}

const POLL_MS = 250;
const KEY_PREFIX = "incoming/";

/**
 * `decisions bench --job`: a JSONL object of `lines` lines (most sharing a state with their
 * neighbours, a few not JSON) through the local pipeline as a batch job — put into the stack's
 * bucket, ingested, decided by the decide function on the adapter, its results written — measuring
 * ingest lines/s, the drain rate, the time from the last line's end to the results, and the peak
 * RSS of ingest and of the results writer. Ingest (the ingest workflow over the real ingest
 * function, as the upload trigger runs it) and the writer each run in a child process of their
 * own, started before their step, so that their peak RSS is theirs alone; the decide function,
 * DynamoDB Local, fauxqs, the gateway and the adapter run as `decisions up` runs them.
 */
export async function runJobBench(
  options: JobBenchOptions,
): Promise<{ report: JobBenchReport; jsonPath?: string; svgPath?: string }> {
  const startedAt = new Date();
  const loadStart = loadavg();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const lines = options.lines ?? 20_000;
  const distinctStates = options.distinctStates ?? 20;
  const batchSize = options.batchSize ?? 100;
  const object = buildJobObject({
    lines,
    distinctStates,
    run: options.run ?? 100,
    ...(options.invalidEvery === undefined ? {} : { invalidEvery: options.invalidEvery }),
  });
  const modelPath = options.modelPath ?? (await ensureGeneratedModel("tiny-qwen3"));
  log(
    `bench --job: ${lines} lines (${(object.bytes / 2 ** 20).toFixed(1)} MiB, ${distinctStates} states, ${object.invalid} not JSON), model ${modelPath}, load average ${fmt(loadStart)}`,
  );

  let context: StackHandlerContext | undefined;
  const stack = await startLocalStack({
    env: options.env,
    model: modelPath,
    adapterThreads: options.threads,
    log,
    poller: { batchSize, maximumBatchingWindowMs: 1000, maximumConcurrency: 2 },
    createHandler: (handlerContext) => {
      context = handlerContext;
      return createLocalDecideHandler(handlerContext);
    },
    // The bench follows the job record and starts the writer in its own process.
    jobs: { onJobEnded: async () => undefined },
  });
  const steps: JobStep[] = [];
  try {
    if (context?.jobs === undefined) throw new Error("the local stack started without jobs");
    const stepStack: JobStepStack = {
      region: stack.region,
      table: stack.table,
      jobsTable: context.jobs.table,
      queueUrl: stack.queueUrl,
      maxReceiveCount: stack.maxReceiveCount,
      endpoints: context.endpoints,
    };
    const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const ledger = new JobLedger({
      client: documents,
      jobsTable: context.jobs.table,
      outcomesTable: stack.table,
      retry: new RetryPolicy({ maxAttempts: 3 }),
    });
    const [ingestStep, writerStep] = await Promise.all([startJobStep(), startJobStep()]);
    steps.push(ingestStep, writerStep);

    // act: the upload, ingest beside the decide function, then the results
    const key = `${KEY_PREFIX}job-bench-${lines}-${startedAt.getTime()}.jsonl`;
    const putAt = Date.now();
    const put = await stack.clients.s3.send(
      new PutObjectCommand({ Bucket: stack.bucket, Key: key, Body: object.body }),
    );
    const eTag = put.ETag?.replaceAll('"', "");
    const ingesting = ingestStep.run({
      step: "ingest",
      stack: stepStack,
      object: {
        bucket: stack.bucket,
        key,
        ...(eTag === undefined ? {} : { eTag }),
        size: object.bytes,
        reason: "PutObject",
      },
      ingest: { stateMachine: stack.plan.ingest.stateMachine, function: stack.plan.ingest.function },
    });
    let ingest: JobStepReport | undefined;
    void ingesting.then((report) => {
      ingest = report;
    });
    const {
      job: ended,
      firstOutcomeAt,
      progress,
    } = await followJob({
      ledger,
      reader: new JobsReader({ client: documents, tableName: context.jobs.table }),
      source: `s3://${stack.bucket}/${key}`,
      putAt,
      lines,
      stallMs: options.stallMs ?? 300_000,
      ingestDone: () => ingest,
      log,
    });
    const ingestReport = await ingesting;
    if (!ingestReport.ok) throw new Error(`ingest failed: ${ingestReport.error}`);
    const written = await writerStep.run({
      step: "write",
      stack: stepStack,
      jobId: ended.job_id,
      ...(options.partBytes === undefined ? {} : { partBytes: options.partBytes }),
    });
    if (!written.ok) throw new Error(`the results writer failed: ${written.error}`);
    if (!("written" in written.result) || !written.result.written)
      throw new Error(`the results writer wrote nothing: ${JSON.stringify(written.result)}`);
    const job = await ledger.get(ended.job_id);
    if (job?.completed_at === undefined || job.ended_at === undefined)
      throw new Error(`job ${ended.job_id} has no completion time after its results were written`);

    const ingestResult = ingestReport.result as { invocations: number; sent: number; rejected: number };
    const endedAt = Date.parse(job.ended_at);
    const completedAt = Date.parse(job.completed_at);
    const report: JobBenchReport = {
      command: `decisions bench --job --lines ${lines} --batch-size ${batchSize}`,
      started_at: startedAt.toISOString(),
      duration_s: 0,
      machine: { ...describeMachine(), load_average_start: round2(loadStart), load_average_end: [] },
      model: modelPath.replace(`${packageRoot()}/`, ""),
      object: {
        lines,
        bytes: object.bytes,
        distinct_states: distinctStates,
        invalid_lines: object.invalid,
      },
      event_source: { batch_size: batchSize, maximum_concurrency: 2 },
      ingest: {
        ms: Math.round(ingestReport.ms),
        lines_per_s: round1(lines / (ingestReport.ms / 1000)),
        invocations: ingestResult.invocations,
        sent: ingestResult.sent,
        rejected: ingestResult.rejected,
        memory: memoryOf(ingestReport),
      },
      drain: {
        first_outcome_after_ms: firstOutcomeAt - putAt,
        ended_after_ms: endedAt - putAt,
        lines_per_s: round1(lines / (Math.max(1, endedAt - firstOutcomeAt) / 1000)),
      },
      results: {
        write_ms: Math.round(written.ms),
        ended_to_completed_ms: completedAt - endedAt,
        result_bytes: written.result.result_bytes,
        part_bytes: options.partBytes ?? null,
        memory: memoryOf(written),
      },
      job: {
        job_id: job.job_id,
        status: job.status,
        counts: job.counts,
        results_uri: job.results_uri ?? null,
      },
      total_ms: completedAt - putAt,
      progress,
    };
    report.machine.load_average_end = round2(loadavg());
    report.duration_s = Math.round((Date.now() - startedAt.getTime()) / 1000);
    if (options.outDir === null) return { report };
    const outDir = options.outDir ?? join(packageRoot(), "lab", "bench", "results");
    await mkdir(outDir, { recursive: true });
    const stamp = startedAt.toISOString().replaceAll(":", "-").replaceAll(".", "-");
    const jsonPath = join(outDir, `job-${stamp}.json`);
    const svgPath = join(outDir, `job-${stamp}.svg`);
    await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(svgPath, progressChart(report));
    return { report, jsonPath, svgPath };
  } finally {
    for (const step of steps) await step.kill();
    await stack.stop();
  }
}

/**
 * Polls the job record until ingest has reported and `ended_at` is set: the time of the first
 * counted line end and the ended count over time. Bounded by progress: throws when the ended
 * count does not move for `stallMs`, or ingest failed.
 */
async function followJob(options: {
  ledger: JobLedger;
  reader: JobsReader;
  /** `s3://bucket/key` of the object: its job is found by it in the newest jobs. */
  source: string;
  putAt: number;
  lines: number;
  stallMs: number;
  ingestDone: () => JobStepReport | undefined;
  log: (line: string) => void;
}): Promise<{ job: Job; firstOutcomeAt: number; progress: { s: number; ended: number }[] }> {
  let jobId: string | undefined;
  const progress: { s: number; ended: number }[] = [];
  let firstOutcomeAt: number | undefined;
  let lastEnded = -1;
  let movedAt = Date.now();
  let loggedAt = 0;
  for (;;) {
    const ingest = options.ingestDone();
    if (ingest !== undefined && !ingest.ok) throw new Error(`ingest failed: ${ingest.error}`);
    jobId ??= (await options.reader.newest(20)).find((found) => found.source === options.source)?.job_id;
    const job = jobId === undefined ? undefined : await options.ledger.get(jobId);
    const now = Date.now();
    const ended = job?.counts.ended ?? 0;
    if (ended > 0 && firstOutcomeAt === undefined) firstOutcomeAt = now;
    if (ended !== lastEnded) {
      lastEnded = ended;
      movedAt = now;
      progress.push({ s: Math.round((now - options.putAt) / 100) / 10, ended });
    }
    if (now - loggedAt >= 10_000) {
      loggedAt = now;
      options.log(`job: ${ended}/${job?.counts.lines ?? "?"} lines ended, ${job?.counts.sent ?? 0} sent`);
    }
    if (job?.ended_at !== undefined && ingest !== undefined)
      return { job, firstOutcomeAt: firstOutcomeAt ?? now, progress };
    if (now - movedAt > options.stallMs)
      throw new Error(
        `the job's ended count stayed at ${ended} of ${options.lines} for ${options.stallMs} ms`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function memoryOf(report: JobStepReport & { ok: true }): StepMemory {
  return {
    peak_rss_mib: round1(report.peak_maxrss_kib / 1024),
    growth_mib: round1((report.peak_maxrss_kib - report.baseline_maxrss_kib) / 1024),
  };
}

/** Lines ended over time, the last line's end and the results marked. */
function progressChart(report: JobBenchReport): string {
  return renderChart(
    [
      {
        name: "lines ended",
        colour: "#1f77b4",
        points: [{ x: 0, y: 0 }, ...report.progress.map((point) => ({ x: point.s, y: point.ended }))],
      },
      {
        name: "results written",
        colour: "#d62728",
        points: [{ x: report.total_ms / 1000, y: report.object.lines }],
      },
    ],
    {
      title: `${report.object.lines}-line job through the local pipeline`,
      xLabel: "seconds since the upload",
      yLabel: "lines ended",
    },
  );
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function round2(values: number[]): number[] {
  return values.map((value) => Math.round(value * 100) / 100);
}

function fmt(values: number[]): string {
  return values.map((value) => value.toFixed(2)).join(", ");
}
