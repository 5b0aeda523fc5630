/**
 * `decisions jobs list|show|wait|results`: batch jobs (one per JSONL object ingested from the
 * bucket) as their owners follow them — the newest jobs, one in full, a wait until it ends with
 * progress, and its results object.
 */

import { EventEmitter, once } from "node:events";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { S3Client } from "@aws-sdk/client-s3";
import { SingleBar } from "cli-progress";
import type { Job, JobUsage } from "../../contract/index.js";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { JobLedger, JobsReader } from "../../core/jobs/index.js";
import { awsClientConfig } from "../../operations/common/awsClientConfig.js";
import { sumJobUsage } from "../../operations/cost/index.js";
import { jobSummary, readJobResults, waitForJob } from "../../operations/jobs/index.js";
import { UsageError } from "../errors.js";
import { inertJson, inertText } from "../inertText.js";
import type { ParsedCommandArgs } from "../parseCommandArgs.js";
import { parseSubCommandArgs } from "../parseSubCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";
import { openTable, TABLE_OPTION_FLAGS, TABLE_OPTION_NAMES, tableOptionsUsage } from "./tableOptions.js";

const DEFAULT_TABLE = "jobs";
const DEFAULT_LIMIT = 20;
/** `timeout`'s exit code, which scripts already read as "ran out of time". */
const TIMEOUT_EXIT = 124;
/** Plain progress lines (not a terminal) at most this often. */
const PLAIN_PROGRESS_MS = 5000;

const USAGE = `usage:
  decisions jobs list    [--limit N] [--json] [table options]
  decisions jobs show    <job id> [--json] [table options]
  decisions jobs wait    <job id> [--timeout <s>] [--interval <s>] [--json] [table options]
  decisions jobs results <job id> [--out <file>] [--s3-endpoint-url <url>] [table options]

list     the newest jobs (default ${DEFAULT_LIMIT}), newest first: id, status, lines ended of all, source.
show     one job: status, source, times, counts (lines, sent, rejected at ingest, outcomes by status,
         dead-lettered), results and manifest URIs, the reason when it failed, and what its decisions
         cost at the endpoint so far (tokens, cached tokens, endpoint seconds: each line's share of its
         request, summed from the job's line items as the manifest sums them; \`decisions cost --job\`
         prices them).
wait     follows a job until it ends: a progress bar with rate and ETA on a terminal, a progress line
         every ${PLAIN_PROGRESS_MS / 1000} s otherwise; then its summary. Exit 0 when complete, 1 when
         complete_with_errors or failed, ${TIMEOUT_EXIT} when --timeout passed first.
results  the job's JSONL results (one line per input line, in input order) to --out or stdout,
         streamed from its results_uri.

--json   list/show/wait: one job per line: job_id, source, status, counts, results_uri, manifest_uri
         (URIs null until the results are written); show adds usage: {decisions, input_tokens,
         evaluated_tokens, cached_tokens, endpoint_seconds}.

table options:
${tableOptionsUsage({ what: "jobs", default: DEFAULT_TABLE }, 28).join("\n")}
  --s3-endpoint-url <url>   results: an S3 endpoint other than AWS's (decisions up's s3_endpoint)
`;

const FLAGS = {
  ...TABLE_OPTION_FLAGS,
  limit: { type: "string" },
  json: { type: "boolean" },
  timeout: { type: "string" },
  interval: { type: "string" },
  out: { type: "string" },
  "s3-endpoint-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Sub = "list" | "show" | "wait" | "results";
const SUB_FLAGS: Record<Sub, readonly string[]> = {
  list: ["limit", "json"],
  show: ["json"],
  wait: ["timeout", "interval", "json"],
  results: ["out", "s3-endpoint-url"],
};
const SHARED_FLAGS = [...TABLE_OPTION_NAMES, "help"];

type Values = ParsedCommandArgs<typeof FLAGS>["values"];

/** Where `jobs` writes and how it learns of Ctrl-C (tests pass their own). */
export interface JobsCommandIo extends CliOutput {
  signals: {
    once(signal: "SIGINT", listener: () => void): unknown;
    off(signal: "SIGINT", listener: () => void): unknown;
  };
}

/** Builds the `decisions jobs` command writing to the given streams (tests pass their own). */
export function createJobsCommand(io: Partial<JobsCommandIo> = {}): CliCommand {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const signals = io.signals ?? process;
  return {
    async run(args) {
      const parsed = parseSubCommandArgs({
        command: "jobs",
        args,
        options: FLAGS,
        subFlags: SUB_FLAGS,
        sharedFlags: SHARED_FLAGS,
        allowPositionals: true,
        usage: USAGE,
      });
      if (parsed.help) {
        stdout.write(USAGE);
        return 0;
      }
      const { sub, values, positionals } = parsed;
      const takesId = sub !== "list";
      if (positionals.length !== (takesId ? 1 : 0)) {
        throw new UsageError(takesId ? "exactly one job id is needed" : `"jobs ${sub}" takes no id`, {
          usage: USAGE,
        });
      }
      const jobId = positionals[0] ?? "";
      const { client, tableName } = await openTable(values, { table: "jobs", default: DEFAULT_TABLE }, USAGE);
      const reader = new JobsReader({ client, tableName });
      try {
        switch (sub) {
          case "list":
            return await list(reader, values, stdout);
          case "show":
            return await show(
              reader,
              new JobLedger({ client, jobsTable: tableName, retry: new RetryPolicy() }),
              jobId,
              values,
              stdout,
            );
          case "wait":
            return await wait(reader, jobId, values, { stdout, stderr, signals });
          case "results":
            return await results(reader, jobId, values, stdout, stderr);
        }
      } finally {
        client.destroy();
      }
    },
  };
}

/** The `decisions jobs` command, writing to the process's stdout and stderr. */
export const jobsCommand: CliCommand = createJobsCommand();

async function list(reader: JobsReader, values: Values, stdout: CliOutput["stdout"]): Promise<number> {
  const limit = readPositive(values.limit, "--limit", DEFAULT_LIMIT);
  const jobs = await reader.newest(limit);
  if (values.json === true) {
    for (const job of jobs) stdout.write(`${inertJson(jobSummary(job))}\n`);
    return 0;
  }
  if (jobs.length === 0) {
    stdout.write(
      `no jobs in ${reader.tableName} (a job starts when a JSONL object is put under the ingest prefix)\n`,
    );
    return 0;
  }
  stdout.write(`${jobs.length} newest job(s):\n`);
  for (const job of jobs) {
    stdout.write(
      `${inertText(job.created_at)}  ${job.job_id}  ${job.status.padEnd(20)}  ${endedOfLines(job).padEnd(15)}  ${inertText(job.source)}\n`,
    );
  }
  return 0;
}

async function show(
  reader: JobsReader,
  ledger: JobLedger,
  jobId: string,
  values: Values,
  stdout: CliOutput["stdout"],
): Promise<number> {
  const job = await reader.get(jobId);
  const usage = await sumJobUsage(ledger, jobId);
  stdout.write(
    values.json === true
      ? `${inertJson({ ...jobSummary(job), usage })}\n`
      : `${describeJob(job)}${describeUsage(usage)}`,
  );
  return 0;
}

function describeUsage(usage: JobUsage): string {
  if (usage.decisions === 0) return "  usage     no line decided by the model yet\n";
  return `  usage     ${usage.decisions} decision(s) by the model: ${usage.input_tokens} tokens (${usage.evaluated_tokens} evaluated, ${usage.cached_tokens} cached), endpoint ${usage.endpoint_seconds} s\n`;
}

async function wait(
  reader: JobsReader,
  jobId: string,
  values: Values,
  io: Pick<JobsCommandIo, "stdout" | "stderr" | "signals">,
): Promise<number> {
  const timeoutS = values.timeout === undefined ? undefined : readSeconds(values.timeout, "--timeout");
  const intervalS = values.interval === undefined ? 1 : readSeconds(values.interval, "--interval");
  const abort = new AbortController();
  const onInt = (): void => abort.abort();
  io.signals.once("SIGINT", onInt);
  const progress = createProgress(io.stderr);
  try {
    const { job, timedOut } = await waitForJob({
      reader,
      jobId,
      intervalMs: intervalS * 1000,
      signal: abort.signal,
      onProgress: progress.update,
      ...(timeoutS === undefined ? {} : { timeoutMs: timeoutS * 1000 }),
    });
    progress.stop();
    io.stdout.write(values.json === true ? `${inertJson(jobSummary(job))}\n` : describeJob(job));
    if (abort.signal.aborted) {
      io.stderr.write(`interrupted: job ${jobId} is ${job.status}; the pipeline goes on without this wait\n`);
      return 130;
    }
    if (timedOut) {
      io.stderr.write(`job ${jobId} is still ${job.status} after ${timeoutS} s (--timeout)\n`);
      return TIMEOUT_EXIT;
    }
    return job.status === "complete" ? 0 : 1;
  } finally {
    progress.stop();
    io.signals.off("SIGINT", onInt);
  }
}

async function results(
  reader: JobsReader,
  jobId: string,
  values: Values,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const job = await reader.get(jobId);
  const endpointUrl = values["s3-endpoint-url"];
  const s3 = new S3Client({
    ...awsClientConfig({ region: values.region, endpointUrl }),
    // An emulator on loopback has no bucket host names.
    ...(endpointUrl === undefined ? {} : { forcePathStyle: true }),
  });
  try {
    const body = await readJobResults(job, s3);
    if (values.out === undefined || values.out === "-") {
      for await (const chunk of body) {
        // Waits for a pipe that is full (a large object into `head` or a slow reader).
        if (stdout.write(chunk) === false && isEmitter(stdout)) await once(stdout, "drain");
      }
    } else {
      await pipeline(body, createWriteStream(values.out));
      stderr.write(`results of ${jobId} (${job.counts.lines ?? "?"} lines) written to ${values.out}\n`);
    }
    return 0;
  } finally {
    s3.destroy();
  }
}

function isEmitter(stream: unknown): stream is EventEmitter {
  return stream instanceof EventEmitter;
}

/** `ended/lines` (lines `?` while the object is still being read). */
function endedOfLines(job: Job): string {
  return `${job.counts.ended}/${job.counts.lines ?? "?"} lines`;
}

function describeJob(job: Job): string {
  const { counts } = job;
  const outcomes = Object.entries(counts.outcomes)
    .map(([status, count]) => `${status} ${count}`)
    .join(", ");
  const times = [
    `created ${job.created_at}`,
    ...(job.read_at ? [`read ${job.read_at}`] : []),
    ...(job.ended_at ? [`ended ${job.ended_at}`] : []),
    ...(job.completed_at ? [`completed ${job.completed_at}`] : []),
  ].join(", ");
  const lines = [
    `${job.job_id}  ${job.status}`,
    `  source    ${job.source}${job.version_id ? ` (version ${job.version_id})` : ""}`,
    `  times     ${times}`,
    `  lines     ${counts.lines ?? "not known yet (reading)"}: sent ${counts.sent}, rejected at ingest ${counts.rejected_at_ingest}`,
    `  ended     ${counts.ended}: ${outcomes}, dead-lettered ${counts.dead_lettered}${counts.duplicates > 0 ? ` (${counts.duplicates} repeated an id)` : ""}`,
    ...(job.results_uri ? [`  results   ${job.results_uri}`] : []),
    ...(job.manifest_uri ? [`  manifest  ${job.manifest_uri}`] : []),
    ...(job.reason ? [`  reason    ${job.reason}`] : []),
  ];
  // Sources, reasons and times come from the table (an object's key is the uploader's): inert.
  return `${lines.map((line) => inertText(line)).join("\n")}\n`;
}

/**
 * Progress of a wait on stderr: on a terminal a cli-progress bar (lines ended of all, rate, ETA,
 * status); otherwise a plain line when the count moved, at most every few seconds.
 */
function createProgress(stderr: CliOutput["stderr"]): { update: (job: Job) => void; stop: () => void } {
  const started = performance.now();
  let first: number | undefined;
  const rate = (ended: number): number => {
    first ??= ended;
    const seconds = (performance.now() - started) / 1000;
    return seconds > 0 ? (ended - first) / seconds : 0;
  };
  if (stderr.isTTY === true) {
    const bar = new SingleBar({
      stream: stderr as NodeJS.WritableStream,
      format:
        "{job} [{bar}] {percentage}% | {value}/{total} lines | {rate} lines/s | ETA {eta_formatted} | {status}",
      hideCursor: true,
      etaBuffer: 30,
    });
    let shown = false;
    return {
      update(job) {
        const total = Math.max(job.counts.lines ?? job.counts.sent + job.counts.rejected_at_ingest, 1);
        const payload = { job: job.job_id, status: job.status, rate: rate(job.counts.ended).toFixed(1) };
        if (!shown) {
          shown = true;
          bar.start(total, job.counts.ended, payload);
        } else {
          bar.setTotal(total);
          bar.update(job.counts.ended, payload);
        }
      },
      stop() {
        if (shown) bar.stop();
        shown = false;
      },
    };
  }
  let lastLine = Number.NEGATIVE_INFINITY;
  let lastEnded = -1;
  let lastStatus = "";
  return {
    update(job) {
      const now = performance.now();
      const moved = job.counts.ended !== lastEnded || job.status !== lastStatus;
      if (!moved || (now - lastLine < PLAIN_PROGRESS_MS && job.status === lastStatus)) return;
      lastLine = now;
      lastEnded = job.counts.ended;
      lastStatus = job.status;
      const perSecond = rate(job.counts.ended);
      const lines = job.counts.lines;
      const eta =
        lines !== undefined && perSecond > 0
          ? `, ETA ${Math.ceil((lines - job.counts.ended) / perSecond)} s`
          : "";
      stderr.write(
        `${job.job_id} ${job.status}: ${endedOfLines(job)} ended, ${perSecond.toFixed(1)} lines/s${eta}\n`,
      );
    },
    stop() {},
  };
}

function readPositive(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`${flag} must be a positive integer, got "${text}"`, { usage: USAGE });
  return Number(text);
}

function readSeconds(text: string, flag: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0)
    throw new UsageError(`${flag} must be a positive number of seconds, got "${text}"`, { usage: USAGE });
  return value;
}
