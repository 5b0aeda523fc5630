import { quantile } from "../../../evaluation/metrics/statistics.js";
import { type Interval, intervalCoverage } from "./intervalCoverage.js";

/** One call the adapter received, as the bench's proxy saw it (`performance.now()` times). */
export interface EndpointCall extends Interval {
  status: number;
  /** The answer's body (what its `usage` says the call cost). */
  body?: string;
}

/** Where a drain's time went at the endpoint. */
export interface EndpointProfile {
  /** Calls the adapter received in the window. */
  calls: number;
  /** Share of the window in which the adapter had at least one call (0–1): below 1, the pipeline left it idle. */
  busy_share: number;
  /** Calls at the adapter at once, averaged over the window (running and waiting in its admission). */
  mean_in_flight: number;
  /** From the window's start (the pollers' start) to the first call, seconds: receive and batching. */
  first_call_s: number;
  /** From the last call's answer to the window's end (the last delete), seconds: writes and deletes. */
  tail_s: number;
  /** Latency of the served calls (200) at the adapter, queueing in its admission included. */
  served_p50_ms: number;
  served_p95_ms: number;
}

/**
 * Profiles the endpoint's calls over a drain window [fromMs, toMs]: how much of it the adapter was
 * busy (the union of the calls' intervals), how many calls it held on average, how long the
 * pipeline took to send the first one and to finish after the last, and the served calls'
 * latency. An idle share means time the pipeline itself took (receives, batching windows,
 * outcome writes, deletes, pauses); a mean in flight far above 1 means calls waited in the
 * adapter's queue (latency that costs deadlines but buys no throughput on a one-at-a-time engine).
 *
 * @throws {RangeError} when the window is empty.
 */
export function profileEndpointCalls(
  calls: readonly EndpointCall[],
  fromMs: number,
  toMs: number,
): EndpointProfile {
  const { clipped, busyShare, meanOpen } = intervalCoverage(calls, fromMs, toMs);
  const served = clipped.filter((call) => call.status === 200).map((call) => call.endMs - call.startMs);
  const first = clipped[0];
  const lastEnd = clipped.reduce((latest, call) => Math.max(latest, call.endMs), fromMs);
  return {
    calls: clipped.length,
    busy_share: round(busyShare),
    mean_in_flight: round(meanOpen),
    first_call_s: round(((first?.startMs ?? toMs) - fromMs) / 1000),
    tail_s: round((toMs - lastEnd) / 1000),
    served_p50_ms: served.length === 0 ? 0 : Math.round(quantile(served, 0.5)),
    served_p95_ms: served.length === 0 ? 0 : Math.round(quantile(served, 0.95)),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
