import {
  AbortedError,
  EngineDisposedError,
  InvalidBatchError,
  InvalidDecisionError,
} from "../engine/errors.js";
import { type EngineFieldMap, translateEnginePath } from "./engineFieldMap.js";
import {
  BadRequestError,
  ClientDisconnectedError,
  HttpError,
  InternalServerError,
  ServiceUnavailableError,
} from "./errors.js";
import { formatFieldPath } from "./fieldPath.js";
import type { Problem } from "./types.js";

/** What {@link mapEngineError} needs to know about the request that failed. */
export interface EngineErrorContext {
  /** Translates engine paths (`["questions", 1]`) into the caller's fields (`decisions[1]`). */
  fields?: EngineFieldMap;
  /** The request's signal: when it aborted, its reason (deadline, disconnect) explains the failure. */
  signal?: AbortSignal;
  /** `Retry-After` of transient failures, in seconds. */
  retryAfterSeconds: number;
}

/**
 * Turns whatever a request's handling threw into the error it is answered with, by class:
 * - {@link HttpError}s and {@link ClientDisconnectedError} pass through;
 * - a failure after the request's own signal aborted becomes the abort's reason (the server aborts
 *   with a `RequestDeadlineError` (504) or a `ClientDisconnectedError`);
 * - engine {@link InvalidDecisionError}s (`TokenBudgetError`, `TooManyOptionsError`,
 *   `ReservedTokenError`, {@link InvalidBatchError} with several, …) become 400 listing each
 *   problem at the caller's field ({@link engineProblems});
 * - {@link AbortedError} otherwise and {@link EngineDisposedError} become 503, retryable;
 * - anything else becomes a generic 500 whose `cause` keeps the original for the log.
 */
export function mapEngineError(
  error: unknown,
  context: EngineErrorContext,
): HttpError | ClientDisconnectedError {
  if (error instanceof HttpError || error instanceof ClientDisconnectedError) return error;
  const signal = context.signal;
  if (
    signal?.aborted === true &&
    (error instanceof AbortedError || error === signal.reason || isAbortError(error))
  ) {
    const reason: unknown = signal.reason;
    if (reason instanceof HttpError || reason instanceof ClientDisconnectedError) return reason;
    return new ServiceUnavailableError("the request was cancelled; retry it", context.retryAfterSeconds, {
      cause: error,
    });
  }
  if (error instanceof InvalidDecisionError) {
    return BadRequestError.fromProblems(engineProblems(error, context.fields));
  }
  if (error instanceof AbortedError) {
    return new ServiceUnavailableError(
      "scoring was cancelled; retry the request",
      context.retryAfterSeconds,
      { cause: error },
    );
  }
  if (error instanceof EngineDisposedError) {
    return new ServiceUnavailableError(
      "the model is shutting down; retry the request",
      context.retryAfterSeconds,
      {
        cause: error,
      },
    );
  }
  return new InternalServerError({ cause: error });
}

/**
 * The problems an engine error reports, each at the caller's field (from its `path`, through
 * `fields` when given) with the engine's `reason` as the message: one per problem of an
 * {@link InvalidBatchError}, else one.
 */
export function engineProblems(error: InvalidDecisionError, fields?: EngineFieldMap): Problem[] {
  const all = error instanceof InvalidBatchError ? error.problems : [error];
  return all.map((problem) => ({
    field: fields === undefined ? formatFieldPath(problem.path) : translateEnginePath(problem.path, fields),
    message: problem.reason,
  }));
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
