/**
 * A bounded load run on loopback with autocannon: `connections` clients send System One requests
 * for `durationSeconds`, each request with its own question ids, checked on its response; the
 * target process is sampled for resident memory and open descriptors, and its state-file folder
 * counted, from start to end (after a warm-up at the same load, see `warmupSeconds`).
 */
import autocannon from "autocannon";
import { answersRequest, loadRequestBody } from "./loadRequests.js";
import { countFiles, type ProcessSample, readProcessStats } from "./processStats.js";

/** Options of {@link runLoad}; every default is applied here. */
export interface RunLoadOptions {
  /** Base URL on 127.0.0.1, e.g. the adapter's `http://127.0.0.1:8080`. Required. */
  url: string;
  /** The invocation path. Default `/invocations` (the adapter); the gateway's is `/endpoints/<name>/invocations`. */
  path?: string;
  /** Concurrent clients. Default 50. */
  connections?: number;
  /** Length of the run in seconds. Default 60. */
  durationSeconds?: number;
  /** Seconds a client waits for one response before counting a timeout. Default 30. */
  timeoutSeconds?: number;
  /** The process to sample (the adapter). Default: none sampled. */
  pid?: number;
  /** More processes to sample by name, e.g. `{ gateway: process.pid }`. Default none. */
  alsoSample?: Record<string, number>;
  /** The adapter's temporary folder: its saved state files (`decisions-state-*` below it) are counted. Default: not counted. */
  stateDir?: string;
  /**
   * Seconds of the same load (same clients, same rate) before sampling starts, so the start sample
   * is of processes that have reached their working set for this many connections: that first
   * climb (V8 growing its heap to the allocation rate, sockets, a warm engine) is not a leak and
   * is not counted as growth. Measured: under a 50-client storm the gateway's RSS climbed for about
   * 40 s (155 → 190 MB) and then stayed within 0.1% for the next 135 s. The warm-up's answers are
   * not counted. Default 30.
   */
  warmupSeconds?: number;
  /** Requests per second each client sends at most (a client that honours Retry-After). Default: as fast as answered. */
  connectionRate?: number;
  /** Milliseconds between samples. Default 1000. */
  sampleIntervalMs?: number;
  /** Milliseconds to wait after the run before the end sample (idle connections close). Default 1500. */
  settleMs?: number;
}

/** How one process fared over the run. */
export interface ProcessReport {
  pid: number;
  samples: ProcessSample[];
  rssStartBytes: number;
  rssEndBytes: number;
  rssPeakBytes: number;
  /** (end − start) / start. */
  rssGrowth: number;
  /** RSS at a quarter, half and three quarters of the samples: a plateau or a steady climb. */
  rssQuartilesBytes: [number, number, number];
  fdsStart: number;
  fdsEnd: number;
  fdsPeak: number;
}

/** What a run measured and checked. */
export interface LoadReport {
  url: string;
  path: string;
  connections: number;
  durationSeconds: number;
  /** Responses received. */
  requests: number;
  /** Status code → count. */
  statuses: Record<string, number>;
  ok: number;
  /** 200 responses whose answers were not exactly their own request's question ids. */
  crossTalk: number;
  /** 503 responses (the adapter's admission refusal) and how many lacked `Retry-After`. */
  refused: number;
  refusedWithoutRetryAfter: number;
  /** Gateway only: 424 ModelError responses that carry the adapter's 503 (`OriginalStatusCode`). */
  modelErrors503: number;
  /** Responses of any other status (a 5xx other than 503, a 4xx, a 424 for another reason). */
  unexpected: number;
  /** One example body per unexpected status, cut short. */
  unexpectedExamples: Record<string, string>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; average: number };
  /** Latency of the 200 responses only (autocannon's figures include the quick 503s). */
  okLatencyMs?: { p50: number; p99: number };
  requestsPerSecond: number;
  process?: ProcessReport;
  alsoSampled: Record<string, ProcessReport>;
  /** Saved state files under `stateDir`: count at start, end and peak, and bytes at the end and peak. */
  stateFiles?: { start: number; end: number; peak: number; endBytes: number; peakBytes: number };
}

interface Sampler {
  stop(): Promise<{
    main?: ProcessReport;
    others: Record<string, ProcessReport>;
    files?: LoadReport["stateFiles"];
  }>;
}

/**
 * Runs the load and returns what it measured. Never asserts: the caller (a test, the CLI) decides
 * what must hold.
 *
 * @example const report = await runLoad({ url: adapter.url, pid: adapter.pid, durationSeconds: 60 });
 */
export async function runLoad(options: RunLoadOptions): Promise<LoadReport> {
  const path = options.path ?? "/invocations";
  const connections = options.connections ?? 50;
  const durationSeconds = options.durationSeconds ?? 60;
  const counts = {
    next: 0,
    ok: 0,
    crossTalk: 0,
    refused: 0,
    refusedWithoutRetryAfter: 0,
    modelErrors503: 0,
    unexpected: 0,
  };
  const statuses: Record<string, number> = {};
  const unexpectedExamples: Record<string, string> = {};
  const okLatencies: number[] = [];

  const shape = {
    url: options.url,
    connections,
    timeout: options.timeoutSeconds ?? 30,
    ...(options.connectionRate !== undefined ? { connectionRate: options.connectionRate } : {}),
  };
  const warmupSeconds = options.warmupSeconds ?? 30;
  if (warmupSeconds > 0) {
    let warmup = 0;
    await autocannon({
      ...shape,
      duration: warmupSeconds,
      requests: [
        {
          method: "POST",
          path,
          headers: { "content-type": "application/json" },
          // Request numbers below zero: ids the measured run never uses.
          setupRequest: (request) => ({ ...request, body: loadRequestBody(-1 - warmup++) }),
        },
      ],
    });
  }
  const sampler = startSampler(options);
  const instance = autocannon({
    ...shape,
    duration: durationSeconds,
    requests: [
      {
        method: "POST",
        path,
        headers: { "content-type": "application/json" },
        // A client has one request in flight (no pipelining): the context holds its number and start.
        setupRequest: (request, context) => {
          counts.next += 1;
          context.n = counts.next;
          context.sentAt = performance.now();
          return { ...request, body: loadRequestBody(counts.next) };
        },
        onResponse: (status, body, context, headers) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status === 200) {
            counts.ok += 1;
            okLatencies.push(performance.now() - (context.sentAt as number));
            if (!answersRequest(body, context.n as number)) counts.crossTalk += 1;
          } else if (status === 503) {
            counts.refused += 1;
            if (headerOf(headers, "retry-after") === undefined) counts.refusedWithoutRetryAfter += 1;
          } else if (status === 424 && originalStatusOf(body) === 503) {
            counts.modelErrors503 += 1;
          } else {
            counts.unexpected += 1;
            unexpectedExamples[status] ??= body.slice(0, 300);
          }
        },
      },
    ],
  });
  const result = await instance;
  await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 1500));
  const sampled = await sampler.stop();
  const requests = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  return {
    url: options.url,
    path,
    connections,
    durationSeconds,
    requests,
    statuses,
    ok: counts.ok,
    crossTalk: counts.crossTalk,
    refused: counts.refused,
    refusedWithoutRetryAfter: counts.refusedWithoutRetryAfter,
    modelErrors503: counts.modelErrors503,
    unexpected: counts.unexpected,
    unexpectedExamples,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      average: result.latency.average,
    },
    ...(okLatencies.length > 0
      ? { okLatencyMs: { p50: percentile(okLatencies, 0.5), p99: percentile(okLatencies, 0.99) } }
      : {}),
    requestsPerSecond: requests / result.duration,
    ...(sampled.main !== undefined ? { process: sampled.main } : {}),
    alsoSampled: sampled.others,
    ...(sampled.files !== undefined ? { stateFiles: sampled.files } : {}),
  };
}

/** autocannon keeps header names as the server wrote them. */
function headerOf(headers: Record<string, string | string[]>, name: string): string | string[] | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function originalStatusOf(body: string): number | undefined {
  try {
    const value = JSON.parse(body) as { OriginalStatusCode?: unknown };
    return typeof value.OriginalStatusCode === "number" ? value.OriginalStatusCode : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function startSampler(options: RunLoadOptions): Sampler {
  const started = performance.now();
  const targets: Record<string, number> = { ...(options.alsoSample ?? {}) };
  const main = "\u0000main";
  if (options.pid !== undefined) targets[main] = options.pid;
  const samples: Record<string, ProcessSample[]> = Object.fromEntries(
    Object.keys(targets).map((name) => [name, []]),
  );
  const files: { files: number; bytes: number }[] = [];
  const take = async (): Promise<void> => {
    const atMs = Math.round(performance.now() - started);
    for (const [name, pid] of Object.entries(targets)) {
      samples[name]?.push({ atMs, ...(await readProcessStats(pid)) });
    }
    if (options.stateDir !== undefined) files.push(await countFiles(options.stateDir, "decisions-state-"));
  };
  let pending: Promise<void> = take();
  const timer = setInterval(() => {
    pending = pending.then(take);
  }, options.sampleIntervalMs ?? 1000);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      await take();
      const reports = Object.fromEntries(
        Object.entries(samples).map(([name, list]) => [name, processReport(targets[name] ?? 0, list)]),
      );
      const { [main]: mainReport, ...others } = reports;
      return {
        ...(mainReport !== undefined ? { main: mainReport } : {}),
        others,
        ...(options.stateDir !== undefined
          ? {
              files: {
                start: files[0]?.files ?? 0,
                end: files.at(-1)?.files ?? 0,
                peak: Math.max(0, ...files.map((item) => item.files)),
                endBytes: files.at(-1)?.bytes ?? 0,
                peakBytes: Math.max(0, ...files.map((item) => item.bytes)),
              },
            }
          : {}),
      };
    },
  };
}

function processReport(pid: number, samples: ProcessSample[]): ProcessReport {
  const first = samples[0] ?? { atMs: 0, rssBytes: 0, fds: 0 };
  const last = samples.at(-1) ?? first;
  return {
    pid,
    samples,
    rssStartBytes: first.rssBytes,
    rssEndBytes: last.rssBytes,
    rssPeakBytes: Math.max(...samples.map((sample) => sample.rssBytes)),
    rssGrowth: first.rssBytes === 0 ? 0 : (last.rssBytes - first.rssBytes) / first.rssBytes,
    rssQuartilesBytes: [0.25, 0.5, 0.75].map(
      (q) => samples[Math.floor(q * (samples.length - 1))]?.rssBytes ?? 0,
    ) as [number, number, number],
    fdsStart: first.fds,
    fdsEnd: last.fds,
    fdsPeak: Math.max(...samples.map((sample) => sample.fds)),
  };
}
