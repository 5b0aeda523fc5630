import { type Interval, intervalCoverage } from "./intervalCoverage.js";

/** One invocation of a decide function instance during a drain (`performance.now()` times). */
export interface Invocation extends Interval {
  records: number;
}

/** Where a drain's time went at the functions: the pipeline's side of {@link EndpointProfile}. */
export interface InvocationProfile {
  /** Invocations that ran in the window. */
  invocations: number;
  /** Records per invocation, on average. */
  records_per_invocation: number;
  /** Share of the window in which at least one invocation ran (0–1). */
  busy_share: number;
  /** Invocations running at once, averaged over the window. */
  mean_running: number;
  /**
   * Seconds in which no invocation ran while the queue still held messages (visible, in flight or
   * delayed), sampled by the drain's queue-depth polls: receives and batching windows between
   * batches, delayed re-queued copies — and messages a receive took that no invocation got.
   */
  unheld_s: number;
}

/**
 * Profiles the decide function's invocations over a drain window [fromMs, toMs], beside the
 * time the drain saw the queue holding messages with no invocation running.
 *
 * @throws {RangeError} when the window is empty.
 */
export function profileInvocations(
  invocations: readonly Invocation[],
  unheldMs: number,
  fromMs: number,
  toMs: number,
): InvocationProfile {
  const { clipped, busyShare, meanOpen } = intervalCoverage(invocations, fromMs, toMs);
  const records = clipped.reduce((sum, invocation) => sum + invocation.records, 0);
  return {
    invocations: clipped.length,
    records_per_invocation: clipped.length === 0 ? 0 : round(records / clipped.length),
    busy_share: round(busyShare),
    mean_running: round(meanOpen),
    unheld_s: round(unheldMs / 1000),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
