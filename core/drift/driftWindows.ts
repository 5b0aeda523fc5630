import type { DriftOptions } from "./DriftOptions.js";
import { DriftRangeError } from "./errors.js";

/** A half-open time range [since, until), milliseconds since the epoch. */
export interface TimeRange {
  since: number;
  until: number;
}

/** The two ranges drift compares. */
export interface DriftWindows {
  /** The outcomes looked at: by default the last `windowMinutes` before the evaluation time. */
  window: TimeRange;
  /** What they are compared with: by default the `baselineWindows` windows just before. */
  baseline: TimeRange;
}

/**
 * The rolling windows at time `at`: the window is [at − W, at), the baseline the
 * `baselineWindows` × W just before it. A change at time T reaches the window only once at > T, so
 * every evaluation at or before T compares outcomes from before T with outcomes from before T;
 * after `baselineWindows` windows the new mix is the baseline and the distance falls again.
 */
export function rollingWindows(
  at: number,
  options: Pick<DriftOptions, "windowMinutes" | "baselineWindows">,
): DriftWindows {
  const width = options.windowMinutes * 60_000;
  return {
    window: { since: at - width, until: at },
    baseline: { since: at - width * (1 + options.baselineWindows), until: at - width },
  };
}

/**
 * The window [since, until) and the baseline of `baselineWindows` × `windowMinutes` just before
 * `since` (`decisions drift --since`).
 * @throws DriftRangeError when since is not before until.
 */
export function windowsSince(
  since: number,
  until: number,
  options: Pick<DriftOptions, "windowMinutes" | "baselineWindows">,
): DriftWindows {
  if (!(since < until) || Number.isNaN(since) || Number.isNaN(until))
    throw new DriftRangeError(`the window from ${timeText(since)} to ${timeText(until)}`);
  const baselineWidth = options.windowMinutes * 60_000 * options.baselineWindows;
  return { window: { since, until }, baseline: { since: since - baselineWidth, until: since } };
}

/** Whether `at` is in [since, until). */
export function inRange(range: TimeRange, at: number): boolean {
  return at >= range.since && at < range.until;
}

function timeText(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
