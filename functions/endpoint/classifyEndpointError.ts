import { httpStatusOf, isTransientNetworkError } from "../shared/isTransientNetworkError.js";
import { type EndpointFailure, PermanentEndpointError, TransientEndpointError } from "./errors.js";
import { retryAfterMsOf } from "./retryAfterMsOf.js";

/** SageMaker runtime error names that mean "try again later". */
const TRANSIENT_SERVICE_ERRORS = new Set([
  "ThrottlingException",
  "ServiceUnavailable",
  "InternalFailure",
  "InternalDependencyException",
  "ModelNotReadyException",
]);

/**
 * Translates an error thrown by `SageMakerRuntimeClient.send(InvokeEndpointCommand)` into the
 * pipeline's classes:
 *
 * - `ModelError` (HTTP 424): by the container's `OriginalStatusCode` — 4xx other than 429 →
 *   permanent (the model refused this request: invalid state, too many tokens); 429 (too many
 *   requests), 5xx (503 busy, 504 deadline, 500) or missing → transient.
 * - throttling (429), SageMaker 5xx, `ModelNotReadyException`, resets, refused connections,
 *   timeouts and aborts → transient.
 * - `ValidationError` and other 4xx → permanent.
 * - anything else (no status, unknown) → transient: a record goes back to SQS rather than being
 *   rejected for a failure that is not known to be its own.
 */
export function classifyEndpointError(
  error: unknown,
  endpointName: string,
): TransientEndpointError | PermanentEndpointError {
  const failure = failureOf(error, endpointName);
  if (failure.errorName === "ModelError") {
    const status = failure.originalStatusCode;
    return status !== undefined && status >= 400 && status < 500 && status !== 429
      ? new PermanentEndpointError(failure, { cause: error })
      : new TransientEndpointError(failure, { cause: error });
  }
  if (TRANSIENT_SERVICE_ERRORS.has(failure.errorName) || isTransientNetworkError(error)) {
    return new TransientEndpointError(failure, { cause: error });
  }
  const status = failure.httpStatus;
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
    return new PermanentEndpointError(failure, { cause: error });
  }
  return new TransientEndpointError(failure, { cause: error });
}

function failureOf(error: unknown, endpointName: string): EndpointFailure {
  const fields = (error ?? {}) as {
    name?: unknown;
    code?: unknown;
    OriginalStatusCode?: unknown;
    OriginalMessage?: unknown;
  };
  const failure: EndpointFailure = {
    endpointName,
    errorName:
      typeof fields.name === "string" && fields.name !== "Error"
        ? fields.name
        : typeof fields.code === "string"
          ? fields.code
          : "Error",
  };
  const httpStatus = httpStatusOf(error);
  if (httpStatus !== undefined) failure.httpStatus = httpStatus;
  if (typeof fields.OriginalStatusCode === "number") failure.originalStatusCode = fields.OriginalStatusCode;
  if (typeof fields.OriginalMessage === "string") failure.originalMessage = fields.OriginalMessage;
  const retryAfterMs = retryAfterMsOf(error);
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}
