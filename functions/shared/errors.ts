/**
 * The pipeline's error tree. Behaviour is decided by class: a {@link TransientError} may succeed
 * when tried again (the retry policy retries it, and a record that still fails goes back to SQS);
 * a {@link PermanentError} never will (the record gets a `rejected` outcome with the reason).
 */

/** Base class of every error the pipeline functions raise on purpose. */
export class PipelineError extends Error {
  override name = "PipelineError";
}

/** Options of a {@link TransientError}. */
export interface TransientErrorOptions extends ErrorOptions {
  /** How long the other side asked to be left alone (its Retry-After), in milliseconds. */
  retryAfterMs?: number;
}

/** A failure that may go away when the same operation is tried again (throttling, 5xx, resets, timeouts). */
export class TransientError extends PipelineError {
  override name = "TransientError";
  /** The Retry-After the failing answer carried, in milliseconds; the retry policy waits at least this long. */
  readonly retryAfterMs: number | undefined;
  constructor(message?: string, options?: TransientErrorOptions) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** A failure that trying again cannot fix (invalid input, a 4xx from the model, an unknown policy). */
export class PermanentError extends PipelineError {
  override name = "PermanentError";
}

/** Why the retry policy stopped trying. */
export type RetryStopReason = "attempts" | "deadline" | "budget";

/**
 * The retry policy gave up on a transient failure: out of attempts, or the next attempt would end
 * after the deadline. Transient itself, so the record is reported as a batch item failure and SQS
 * redelivers it. `cause` is the last failure.
 */
export class RetriesExhaustedError extends TransientError {
  override name = "RetriesExhaustedError";
  constructor(
    /** Attempts made (0 when the deadline had passed before the first). */
    readonly attempts: number,
    /** What stopped the retries. */
    readonly reason: RetryStopReason,
    options?: { cause?: unknown },
  ) {
    super(
      reason === "attempts"
        ? `gave up after ${attempts} attempts: ${messageOf(options?.cause)}`
        : reason === "budget"
          ? `stopped after ${attempts} attempts, the instance's retry budget is spent (too many retries lately): ${messageOf(options?.cause)}`
          : `stopped after ${attempts} attempts, the deadline leaves no time for another: ${messageOf(options?.cause)}`,
      options,
    );
  }
}

/** Work that was not started because the invocation's deadline (remaining time less the margin) had passed. */
export class DeadlineExceededError extends TransientError {
  override name = "DeadlineExceededError";
  constructor(
    /** What was not started, for the log. */
    readonly what: string,
  ) {
    super(`not attempted before the deadline: ${what}`);
  }
}

function messageOf(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return cause === undefined ? "no error recorded" : String(cause);
}
