/**
 * Interactive latency at the real adapter during a flood of bulk senders, against its latency
 * alone (issue 43, item 1): the adapter as its own process on the generated tiny-qwen3, one
 * running slot, bulk callers naming `lane=bulk`.
 *
 * Two floods, each `--calls` waves of `--senders` bulk callers sending ~120 KB states at once, with
 * one interactive call timed 100 ms into each wave (the bulk callers run on a thread of their own,
 * `laneFloodSenders.ts`, so that building and uploading their bodies does not delay the timed call
 * in this process):
 * - `hang-up`: each bulk client hangs up 300 ms after it starts sending;
 * - `refused`: each bulk request is tokenized and refused with 400 (its prompt is over the limit).
 *
 * Prints, per flood, the interactive p95 alone and during the flood, their ratio, and the bound
 * the issue sets: 1.5 × p95 alone plus one evaluation (here: one flood request alone, the longest
 * piece of work an interactive call may find running when it arrives). "Alone" is measured twice:
 * `--calls` calls before the floods (`first`), and one call between each two waves once the
 * wave's work has ended (`between`: the same minutes as the flood's calls, so a machine whose other
 * load changes during the run weighs on both sides alike); the verdict uses `between`, and says
 * what `first` would give.
 *
 * Run: `node --import tsx lab/bench/laneFloodMain.ts [--senders 100] [--calls 30] [--log]` (`--log`:
 * the adapter's log lines of the interactive calls, with their server-side times)
 * (Node.js 22: `node_modules/.bin/node` in a checkout).
 */
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { CUSTOM_ATTRIBUTES_HEADER, laneAttributeOf } from "../../contract/lanes/lanes.js";
import { startLoadTarget } from "../reliability/startLoadTarget.js";
import { laneFloodBody } from "./laneFloodBody.js";
import type { LaneFloodSendersData, LaneFloodWave } from "./laneFloodSenders.js";

let stopSenders: () => Promise<unknown> = async () => undefined;

const { values } = parseArgs({
  options: {
    senders: { type: "string", default: "100" },
    calls: { type: "string", default: "30" },
    log: { type: "boolean", default: false },
  },
});
const senders = Number.parseInt(values.senders, 10);
const calls = Number.parseInt(values.calls, 10);

const LARGE_STATE = "The customer writes again about the invoice, the refund and the account. ".repeat(1700);

const decision = laneFloodBody;

async function post(url: string, lane: "interactive" | "bulk", body: string, signal?: AbortSignal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [CUSTOM_ATTRIBUTES_HEADER]: laneAttributeOf(lane) },
    body,
    ...(signal !== undefined ? { signal } : {}),
  });
  await response.arrayBuffer();
  return response.status;
}

/** `count` interactive calls one after another: their latencies in milliseconds. */
async function interactiveLatencies(url: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const status = await post(
      url,
      "interactive",
      decision(`incident-${i}`, "Checkout fails for every customer."),
    );
    if (status !== 200) throw new Error(`an interactive call was answered ${status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
}

/**
 * One wave of `senders` bulk requests sent at once by the senders' thread — each hangs up 300 ms
 * after it starts (`hang-up`) or runs to its answer (`refused`: 400, or 503 beyond the bulk lane's
 * places) — and, 100 ms into it, one interactive call from this thread: its latency, and the wave's
 * statuses (0: hung up).
 */
async function wave(bulkSenders: SendersThread, url: string, kind: "hang-up" | "refused", index: number) {
  bulkSenders.worker.postMessage({ kind, index } satisfies LaneFloodWave);
  await bulkSenders.next(); // every bulk request is under way
  const statuses = bulkSenders.next();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const [latency] = await interactiveLatencies(url, 1);
  return { latency: latency as number, statuses: (await statuses).statuses ?? [] };
}

interface SendersReply {
  started?: true;
  statuses?: number[];
}

/** The senders' thread, and its replies in order: `next()` rejects once the thread failed or exited. */
interface SendersThread {
  worker: Worker;
  next(): Promise<SendersReply>;
}

function sendersThread(data: LaneFloodSendersData): SendersThread {
  const worker = new Worker(new URL("./laneFloodSenders.ts", import.meta.url), { workerData: data });
  const replies: SendersReply[] = [];
  const waiting: { resolve: (reply: SendersReply) => void; reject: (error: Error) => void }[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  };
  worker.on("message", (reply: SendersReply) => {
    const waiter = waiting.shift();
    if (waiter === undefined) replies.push(reply);
    else waiter.resolve(reply);
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the bulk senders' thread exited (code ${code})`)));
  return {
    worker,
    next: () => {
      const reply = replies.shift();
      if (reply !== undefined) return Promise.resolve(reply);
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}

const target = await startLoadTarget({
  env: process.env,
  adapterArgs: ["--max-in-flight", "1", "--context-size", "4096", "--max-state-bytes-per-token", "32"],
});
try {
  const url = new URL("invocations", `${target.adapter.url}/`).toString();
  const bulkSenders = sendersThread({ url, senders, state: LARGE_STATE });
  stopSenders = () => bulkSenders.worker.terminate();
  await interactiveLatencies(url, 3); // warm
  const alone = await interactiveLatencies(url, calls);
  const oneFloodRequest: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const started = performance.now();
    await post(url, "bulk", decision(`bulk-alone-${i}`, LARGE_STATE));
    oneFloodRequest.push(performance.now() - started);
  }
  const evaluationMs = Math.min(...oneFloodRequest);
  const rows: string[] = [];
  for (const kind of ["hang-up", "refused"] as const) {
    const during: number[] = [];
    const between: number[] = [];
    const statuses: number[] = [];
    for (let index = 0; index < calls; index += 1) {
      const result = await wave(bulkSenders, url, kind, index);
      during.push(result.latency);
      statuses.push(...result.statuses);
      // The wave's leftovers (hung-up work the server still holds) end before the next wave.
      await new Promise((resolve) => setTimeout(resolve, 500));
      between.push(...(await interactiveLatencies(url, 1)));
    }
    const bound = 1.5 * p95(between) + evaluationMs;
    const boundFirst = 1.5 * p95(alone) + evaluationMs;
    rows.push(
      `${kind.padEnd(8)} | ${p95(alone).toFixed(0).padStart(5)} | ${p95(between).toFixed(0).padStart(7)} | ${p95(during).toFixed(0).padStart(6)} | ${(p95(during) / p95(between)).toFixed(2).padStart(5)} | ${bound.toFixed(0).padStart(5)} | ${p95(during) <= bound ? "yes" : "NO "} | ${p95(during) <= boundFirst ? "yes" : "NO "} (${boundFirst.toFixed(0)}) | ${statuses.length} (${statuses.filter((s) => s === 503).length} × 503, ${statuses.filter((s) => s === 400).length} × 400, ${statuses.filter((s) => s === 0).length} hung up)`,
    );
  }
  console.log(
    `${calls} waves of ${senders} bulk senders, one interactive call in each; one flood request alone: ${evaluationMs.toFixed(0)} ms`,
  );
  console.log(
    "flood    | p95 alone first ms | p95 alone between ms | p95 during ms | ratio (during / between) | bound ms | within | within by first (its bound ms) | bulk requests",
  );
  for (const row of rows) console.log(row);
  if (values.log) {
    for (const line of target.adapter.output().split("\n"))
      if (line.includes('"lane":"interactive"')) console.log(line);
  }
} finally {
  await stopSenders();
  await target.stop();
}
