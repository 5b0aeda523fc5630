/** A span of time, `performance.now()` milliseconds. */
export interface Interval {
  startMs: number;
  endMs: number;
}

/** How a window [fromMs, toMs] was covered by intervals. */
export interface Coverage<T extends Interval = Interval> {
  /** The intervals that overlap the window, clipped to it, in start order. */
  clipped: T[];
  /** Share of the window covered by at least one interval (their union), 0–1. */
  busyShare: number;
  /** Intervals open at once, averaged over the window (their summed length ÷ the window). */
  meanOpen: number;
}

/**
 * The union and the summed length of intervals over a window, the shared arithmetic of the
 * backlog bench's profiles of the endpoint's calls and of the function's invocations.
 *
 * @throws {RangeError} when the window is empty.
 */
export function intervalCoverage<T extends Interval>(
  intervals: readonly T[],
  fromMs: number,
  toMs: number,
): Coverage<T> {
  const window = toMs - fromMs;
  if (!(window > 0)) throw new RangeError(`the window must be positive, got ${window} ms`);
  const clipped = intervals
    .map((interval) => ({
      ...interval,
      startMs: Math.max(fromMs, interval.startMs),
      endMs: Math.min(toMs, interval.endMs),
    }))
    .filter((interval) => interval.endMs >= interval.startMs)
    .sort((a, b) => a.startMs - b.startMs);
  let busy = 0;
  let coveredUntil = fromMs;
  let total = 0;
  for (const interval of clipped) {
    total += interval.endMs - interval.startMs;
    const start = Math.max(interval.startMs, coveredUntil);
    if (interval.endMs > start) {
      busy += interval.endMs - start;
      coveredUntil = interval.endMs;
    }
  }
  return { clipped, busyShare: busy / window, meanOpen: total / window };
}
