import type { AdmissionTicket } from "../AdmissionGate.js";
import { RequestDeadlineError, ServiceUnavailableError } from "../errors.js";

/** What {@link startInTime} needs besides the ticket. */
export interface StartInTimeOptions {
  /** The request's own signal (its deadline, its client's disconnection). */
  signal: AbortSignal;
  /** The request's deadline, in ms (said in the 503). */
  requestTimeoutMs: number;
  /** `Retry-After` of the 503. */
  retryAfterSeconds: number;
  /** Called before the 503 is thrown (a refusal, not a failure). */
  onRefused: () => void;
}

/**
 * Waits for an admitted request's running slot. A deadline that passes while the request still
 * waits is a busy answer (503 with `Retry-After`, a refusal), not a 504: nothing was evaluated, and
 * a bulk call that interactive calls kept overtaking must come back later, not count as a failure
 * that moves its message towards the dead-letter queue.
 * @throws ServiceUnavailableError as above; the signal's other reasons (a client that went away).
 */
export async function startInTime(ticket: AdmissionTicket, options: StartInTimeOptions): Promise<void> {
  const { signal } = options;
  try {
    await ticket.start(signal);
  } catch (error) {
    if (!(signal.reason instanceof RequestDeadlineError) || error !== signal.reason) throw error;
    options.onRefused();
    throw new ServiceUnavailableError(
      `the request waited ${options.requestTimeoutMs} ms for a running slot without starting (the server is busy${ticket.lane === "bulk" ? "; interactive calls go first" : ""}); retry the request`,
      options.retryAfterSeconds,
      { cause: error },
    );
  }
}
