/**
 * The retry schedule of outcome deliveries, stated once: the local stack and the deployed deliver
 * function retry by it, and the CDK app sizes the delivery queues from it.
 */

/** How a delivery to one target is retried. */
export interface DeliverySchedule {
  /** Attempts in all, the first included, before the delivery goes to the target's DLQ. */
  attempts: number;
  /** The wait before the first retry, before jitter (milliseconds). */
  baseDelayMs: number;
  /** The longest wait between two attempts, before jitter and `Retry-After` (milliseconds). */
  maxDelayMs: number;
  /** How long one attempt waits for the receiver's answer (milliseconds). */
  attemptTimeoutMs: number;
}

/**
 * The schedule deliveries follow unless a test or `decisions up --delivery-*` sets another:
 * 10 attempts; the wait before retry n (n = 1…9) is `min(600 s, 5 s · 2^(n−1))` scaled by a random
 * factor in [0.5, 1] ("equal jitter"), so the nine waits add up to between 15 min 18 s and
 * 30 min 35 s; a `Retry-After` longer than the drawn wait is honoured up to 600 s. Each attempt
 * waits 10 s for an answer.
 */
export const DEFAULT_DELIVERY_SCHEDULE: DeliverySchedule = Object.freeze({
  attempts: 10,
  baseDelayMs: 5_000,
  maxDelayMs: 600_000,
  attemptTimeoutMs: 10_000,
});
