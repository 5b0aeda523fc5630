import { type Clock, systemClock } from "./Clock.js";

/**
 * The moment after which no new work may start: the Lambda's remaining time less a margin, so
 * outcomes can still be written and the response returned before the function is cut off.
 *
 * @example
 * const deadline = Deadline.fromRemaining(context.getRemainingTimeInMillis(), 10_000);
 * if (deadline.expired()) throw new DeadlineExceededError("group ticket-routing");
 */
export class Deadline {
  /**
   * @param at - epoch milliseconds of the deadline.
   * @param clock - the clock it is measured on (default: the system clock).
   */
  constructor(
    readonly at: number,
    readonly clock: Clock = systemClock,
  ) {}

  /** A deadline `remainingMs - marginMs` from now (never earlier than now). */
  static fromRemaining(remainingMs: number, marginMs: number, clock: Clock = systemClock): Deadline {
    return new Deadline(clock.now() + Math.max(0, remainingMs - marginMs), clock);
  }

  /** Milliseconds left, 0 once passed. */
  remainingMs(): number {
    return Math.max(0, this.at - this.clock.now());
  }

  /** Whether the deadline has passed. */
  expired(): boolean {
    return this.remainingMs() <= 0;
  }
}
