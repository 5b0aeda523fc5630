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

/** The part of the deployment a {@link ConfigurationError} is about. */
export type ConfigurationPart = "endpoint" | "outcomes-table" | "policy";

/**
 * The function cannot do its work as it is configured or deployed: the endpoint does not exist
 * under its name or may not be called, the outcomes table is missing or may not be written, the
 * item's policy is not deployed (yet). Nothing about the item is known to be wrong, so it is never
 * a `rejected` outcome: not retried within the invocation, nothing is written, the record goes back
 * to SQS (and is decided once a person fixes the configuration, or waits in the DLQ with its
 * failure record). The decide function logs it at error level and counts it in
 * `ConfigurationErrors`, which an alarm watches: a person must act.
 */
export class ConfigurationError extends PipelineError {
  override name = "ConfigurationError";
  constructor(
    message: string,
    /** What is misconfigured. */
    readonly part: ConfigurationPart,
    /** The resource as configured (the endpoint's or table's name, the policy named). */
    readonly resource: string,
    /** What a person should check or change, in a sentence. */
    readonly remedy: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The item names a policy this function has not loaded, and its message is younger than the wait
 * for unknown policies (`UNKNOWN_POLICY_WAIT_SECONDS`): during a rollout a producer may send
 * items for a new policy before every function instance runs the code that bundles it, and such
 * an item must not be rejected for good. It goes back to the queue; once the wait has passed, an
 * item still naming an unknown policy is `rejected` with the reason (a typo ends with a reason, not
 * in the DLQ).
 */
export class UnknownPolicyError extends ConfigurationError {
  override name = "UnknownPolicyError";
  constructor(
    readonly policy: string,
    /** The policies this instance has loaded. */
    readonly loaded: readonly string[],
    /** Seconds the item may still wait before it is rejected. */
    readonly waitLeftSeconds: number,
  ) {
    super(
      `the policy "${policy}" is not deployed in this function (loaded: ${loaded.join(", ") || "none"}); the item waits for a rollout ${waitLeftSeconds} s more, then it is rejected`,
      "policy",
      policy,
      `deploy the policy "${policy}" with the decide function (policies/${policy}.yaml), or correct the producer's policy name`,
    );
  }
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
