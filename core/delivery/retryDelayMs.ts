import type { DeliverySchedule } from "../../contract/delivery/deliverySchedule.js";

/**
 * The wait before retry `retry` (1 for the first retry) of a delivery: `min(maxDelayMs,
 * baseDelayMs · 2^(retry−1))` scaled by `0.5 + 0.5 · random()` (equal jitter: spread out, never
 * shorter than half the step), and at least the receiver's `Retry-After` when it gave one, up to
 * `maxDelayMs`. Milliseconds, rounded.
 *
 * @example retryDelayMs(3, { baseDelayMs: 5000, maxDelayMs: 600000, ... }, () => 1) // 20000
 */
export function retryDelayMs(
  retry: number,
  schedule: Pick<DeliverySchedule, "baseDelayMs" | "maxDelayMs">,
  random: () => number,
  retryAfterMs?: number,
): number {
  const step = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const jittered = step * (0.5 + 0.5 * random());
  const asked = retryAfterMs === undefined ? 0 : Math.min(schedule.maxDelayMs, retryAfterMs);
  return Math.round(Math.max(jittered, asked));
}
