import { httpStatusOf, isTransientNetworkError } from "../common/isTransientNetworkError.js";
import {
  EndpointConfigurationError,
  type EndpointFailure,
  PermanentEndpointError,
  TransientEndpointError,
} from "./errors.js";
import { retryAfterMsOf } from "./retryAfterMsOf.js";

/** SageMaker runtime error names that mean "try again later". */
const TRANSIENT_SERVICE_ERRORS = new Set([
  "ThrottlingException",
  "ServiceUnavailable",
  "InternalFailure",
  "InternalDependencyException",
  "ModelNotReadyException",
]);

/** SageMaker error names that mean the call itself is misconfigured (name, permissions, credentials). */
const CONFIGURATION_ERRORS = new Set([
  "ValidationError",
  "AccessDeniedException",
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "ExpiredTokenException",
  "ResourceNotFoundException",
]);

/**
 * How SageMaker words a call to an inference component with no copy to serve it (a component
 * scaled to zero whose first copy is still starting): a `ValidationError` (HTTP 400) "Inference
 * Component has no capacity to process this request. ApplicationAutoScaling may be in-progress …"
 * (the AWS blog announcing scale to zero; the same failure is counted as
 * `NoCapacityInvocationFailures`, https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html).
 * Its name is that of a real validation error, so its words are what tells it apart.
 */
const NO_CAPACITY_MESSAGE = /inference component has no capacity/i;

/** Container statuses that mean "not now" rather than "this input is bad": too many requests, request timeout. */
const CONTAINER_NOT_NOW = new Set([408, 429]);

/**
 * Translates an error thrown by `SageMakerRuntimeClient.send(InvokeEndpointCommand)` into the
 * pipeline's classes:
 *
 * - `ModelError` (HTTP 424): by the container's `OriginalStatusCode` — 4xx other than 408 and
 *   429 → permanent (the model refused this input: invalid state, too many tokens); 408, 429, 5xx
 *   (503 busy, 504 deadline, 500) or missing → transient; 0 with SageMaker's "invocation timed
 *   out" → transient and at capacity (`invocationTimedOut`: busy, re-queued, never toward the DLQ).
 * - throttling (429), SageMaker 5xx, `ModelNotReadyException`, resets, refused connections,
 *   timeouts and aborts → transient.
 * - an inference component with no copy yet (`ValidationError`, "Inference Component has no
 *   capacity …") → transient and at capacity: busy, re-queued, never a step toward the DLQ.
 * - SageMaker's own 4xx (`ValidationError` for an endpoint not found, `AccessDeniedException`, bad
 *   credentials) → {@link EndpointConfigurationError}: the function's configuration is wrong, not
 *   the item, so the record goes back instead of being rejected forever.
 * - anything else (no status, unknown) → transient: a record goes back to SQS rather than being
 *   rejected for a failure that is not known to be its own.
 */
export function classifyEndpointError(
  error: unknown,
  endpointName: string,
): TransientEndpointError | PermanentEndpointError | EndpointConfigurationError {
  const failure = failureOf(error, endpointName);
  if (failure.errorName === "ModelError") {
    const status = failure.originalStatusCode;
    return status !== undefined && status >= 400 && status < 500 && !CONTAINER_NOT_NOW.has(status)
      ? new PermanentEndpointError(failure, { cause: error })
      : new TransientEndpointError(failure, { cause: error });
  }
  if (TRANSIENT_SERVICE_ERRORS.has(failure.errorName) || isTransientNetworkError(error)) {
    return new TransientEndpointError(failure, { cause: error });
  }
  const message = (error as { message?: unknown } | null)?.message;
  if (
    failure.errorName === "ValidationError" &&
    typeof message === "string" &&
    NO_CAPACITY_MESSAGE.test(message)
  ) {
    failure.noCapacity = true;
    failure.serviceMessage = message;
    return new TransientEndpointError(failure, { cause: error });
  }
  const status = failure.httpStatus;
  if (
    CONFIGURATION_ERRORS.has(failure.errorName) ||
    (status !== undefined && status >= 400 && status < 500 && status !== 429)
  ) {
    // SageMaker's own words name what is wrong (the endpoint not found, the action not allowed).
    if (typeof message === "string" && message !== "") failure.serviceMessage = message;
    return new EndpointConfigurationError(failure, { cause: error });
  }
  return new TransientEndpointError(failure, { cause: error });
}

/**
 * SageMaker's own timeout of an invocation: a `ModelError` with original status 0 whose message says
 * the invocation timed out waiting for the container ("Received server error (0) from primary with
 * message \"Your invocation timed out while waiting for a response from container primary…\""). It
 * is told apart where the error enters, once, so that nothing downstream reads message text.
 */
function isInvocationTimeout(failure: EndpointFailure, error: unknown): boolean {
  if (failure.originalStatusCode !== 0) return false;
  const message = (error as { message?: unknown } | null)?.message;
  const texts = [failure.originalMessage, typeof message === "string" ? message : undefined];
  return texts.some((text) => text !== undefined && /timed out/i.test(text));
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
  if (failure.errorName === "ModelError" && isInvocationTimeout(failure, error))
    failure.invocationTimedOut = true;
  const retryAfterMs = retryAfterMsOf(error);
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}
