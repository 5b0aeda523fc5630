/** Options of {@link waitForProgress}. */
export interface ProgressWaitOptions {
  /** What is awaited: true once it has happened. Read at each poll. */
  done: () => boolean | Promise<boolean>;
  /**
   * A count that grows while the awaited work moves (outcomes written, lines ended): the wait
   * goes on as long as it keeps changing. Read at each poll.
   */
  progress: () => number | Promise<number>;
  /** Give up after this long without a change of `progress` (ms). */
  stallMs: number;
  /** Between two polls (ms). Default 100. */
  pollMs?: number;
  /** The clock. Default `Date.now`. */
  now?: () => number;
  /** Waits `ms`. Default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** How a {@link waitForProgress} ended. */
export interface ProgressWaitResult {
  /** True when `done` held; false when the wait gave up after `stallMs` without progress. */
  done: boolean;
  /** The last value `progress` gave. */
  progress: number;
  /** The whole wait (ms). */
  waitedMs: number;
}

/**
 * Waits until `done` holds, for as long as `progress` keeps moving: a slow machine that still
 * ends work gets all the time it needs, and a stalled one is given up on after `stallMs` without
 * a change. It never throws for a stall: the caller reports what had not ended.
 *
 * @example
 * const wait = await waitForProgress({ done: () => job.ended, progress: () => poller.stats().succeeded, stallMs: 600_000 });
 */
export async function waitForProgress(options: ProgressWaitOptions): Promise<ProgressWaitResult> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const startedAt = now();
  let last = await options.progress();
  let movedAt = startedAt;
  for (;;) {
    if (await options.done()) return { done: true, progress: last, waitedMs: now() - startedAt };
    const current = await options.progress();
    if (current !== last) {
      last = current;
      movedAt = now();
    } else if (now() - movedAt >= options.stallMs) {
      return { done: false, progress: last, waitedMs: now() - startedAt };
    }
    await sleep(options.pollMs ?? 100);
  }
}
