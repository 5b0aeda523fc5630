/** The slowest a request body may arrive (see {@link watchBodyPace}). */
export interface BodyPace {
  /** Time from the start of the read during which the body may arrive at any pace, in ms. */
  graceMs: number;
  /** After the grace period, each window of this many ms must bring at least the minimum rate. */
  windowMs: number;
  /** Least bytes per second a body must average: over the grace period, then over each window. */
  minBytesPerSecond: number;
}

/** What {@link watchBodyPace} returns: count each chunk received, stop when the read ends. */
export interface BodyPaceWatch {
  /** Counts `bytes` received. */
  received(bytes: number): void;
  /** Stops watching (the read ended, whatever its outcome). Safe to call more than once. */
  stop(): void;
}

/**
 * Watches how fast one request body arrives and calls `onTooSlow` once (and stops) when it falls
 * below `pace.minBytesPerSecond`: first averaged over the grace period, then over each window.
 * A sender that sends headers and a byte of its body and then stalls is cut after
 * `graceMs + windowMs` at most, instead of holding its connection for the whole body deadline;
 * a body that arrives at once is never watched past its read. Rates are measured over the time
 * that really passed (a timer that fires late lengthens the window, never shortens it).
 *
 * @example
 * const pace = watchBodyPace(BODY_PACE, () => reading.abort(new BodyTooSlowError(…)));
 * request.on("data", (chunk) => pace.received(chunk.length));
 * // … when the read ends: pace.stop();
 */
export function watchBodyPace(pace: BodyPace, onTooSlow: () => void): BodyPaceWatch {
  let total = 0;
  let windowStart = performance.now();
  let atWindowStart = 0;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    const now = performance.now();
    const needed = (pace.minBytesPerSecond * (now - windowStart)) / 1000;
    if (total - atWindowStart < needed) {
      timer = undefined;
      onTooSlow();
      return;
    }
    windowStart = now;
    atWindowStart = total;
    schedule(pace.windowMs);
  };
  const schedule = (ms: number): void => {
    timer = setTimeout(check, ms);
    timer.unref();
  };
  schedule(pace.graceMs);
  return {
    received: (bytes) => {
      total += bytes;
    },
    stop: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
