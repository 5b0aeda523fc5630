/**
 * Errors of the decision-endpoint client, translated from the SageMaker runtime client's errors
 * where they enter ({@link classifyEndpointError}). Fields carry the data; nothing needs parsing.
 */
import { ConfigurationError, PermanentError, PipelineError, TransientError } from "../common/errors.js";
import { truncateText } from "../common/truncateText.js";

/** What is known about a failed InvokeEndpoint call. */
export interface EndpointFailure {
  /** The endpoint that was called. */
  endpointName: string;
  /** The SDK error's name (`ModelError`, `ThrottlingException`, …) or the Node error code. */
  errorName: string;
  /** HTTP status SageMaker answered with, when there was an answer. */
  httpStatus?: number;
  /** For a `ModelError`: the status the model container answered with. */
  originalStatusCode?: number;
  /** For a `ModelError`: the container's message (its error body), as SageMaker passes it on. */
  originalMessage?: string;
  /**
   * For a `ModelError`: SageMaker, not the container, ended the call at its own 60 s limit ("Your
   * invocation timed out while waiting for a response from container …", original status 0). The
   * instance was too busy to answer in time: busy, not failed.
   */
  invocationTimedOut?: boolean;
  /** The answer's Retry-After, in milliseconds, when it carried one. */
  retryAfterMs?: number;
  /**
   * SageMaker's own message, for an error of SageMaker rather than of the model (`Endpoint
   * decisions-typo of account … not found.`, `User: … is not authorized to perform:
   * sagemaker:InvokeEndpoint …`): what tells the person which part of the configuration is wrong.
   */
  serviceMessage?: string;
  /**
   * SageMaker said the inference component has no copy to serve the call (`ValidationError`,
   * "Inference Component has no capacity to process this request": a component scaled to zero,
   * its first copy still starting). Not yet, not wrong.
   */
  noCapacity?: boolean;
}

/**
 * Whether the failure means "at capacity, ask again later" rather than "something is wrong": the
 * container's 503 or 429 (through SageMaker as a `ModelError` with that `OriginalStatusCode`),
 * SageMaker's own invocation timeout (`invocationTimedOut`: the container did not answer within
 * SageMaker's 60 s), SageMaker's throttling, any 429 (`ModelNotReadyException` included), and an
 * inference component with no copy yet ({@link EndpointFailure.noCapacity}). Such answers slow the
 * consumer down and never count against an item.
 */
export function isCapacityFailure(failure: EndpointFailure): boolean {
  if (failure.noCapacity === true) return true;
  if (failure.errorName === "ModelError") {
    return (
      failure.originalStatusCode === 503 ||
      failure.originalStatusCode === 429 ||
      failure.invocationTimedOut === true
    );
  }
  return failure.errorName === "ThrottlingException" || failure.httpStatus === 429;
}

/** The endpoint may answer if asked again: the model's 503/504 (busy, deadline), throttling, SageMaker 5xx, timeouts, resets. */
export class TransientEndpointError extends TransientError {
  override name = "TransientEndpointError";
  /** The endpoint said it is at capacity ({@link isCapacityFailure}): busy, not failed. */
  readonly atCapacity: boolean;
  constructor(
    readonly failure: EndpointFailure,
    options?: { cause?: unknown },
  ) {
    super(describe("the decision endpoint failed for now", failure), {
      ...options,
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    });
    this.atCapacity = isCapacityFailure(failure);
  }
}

/** Why an {@link EndpointBusyError} was raised. */
export type EndpointBusyReason = "no-permit" | "deadline";

/**
 * The endpoint could not serve the call within the invocation's deadline: no call could start
 * (`no-permit`: this instance's adaptive limit was taken by calls already out, or the endpoint's
 * Retry-After pause held), or a call it admitted was still waiting for its answer when the
 * deadline passed and was aborted (`deadline`: the endpoint is slower than the demand). Busy,
 * not failed.
 */
export class EndpointBusyError extends TransientError {
  override name = "EndpointBusyError";
  constructor(
    readonly endpointName: string,
    readonly reason: EndpointBusyReason = "no-permit",
    options?: { cause?: unknown },
  ) {
    super(
      reason === "no-permit"
        ? `no call to the decision endpoint ${endpointName} could start before the deadline: it is at capacity (this instance's adaptive limit or the endpoint's Retry-After held)`
        : `the decision endpoint ${endpointName} had not answered when the invocation's deadline passed: it is slower than the demand (the call was aborted)`,
      options,
    );
  }
}

/**
 * The endpoint cannot be called as this function is configured: SageMaker itself (not the model)
 * refused the call — the endpoint does not exist under that name (`ValidationError … not found`),
 * the role may not invoke it (`AccessDeniedException`), the credentials are wrong. Nothing about
 * the item is known to be wrong, so it is never a rejection: neither transient nor permanent, it is
 * not retried within the invocation, nothing is written and the record goes back to SQS, where it
 * is decided once the configuration is fixed (or reaches the DLQ with this reason).
 */
export class EndpointConfigurationError extends ConfigurationError {
  override name = "EndpointConfigurationError";
  constructor(
    readonly failure: EndpointFailure,
    options?: { cause?: unknown },
  ) {
    super(
      describe(
        "the decision endpoint cannot be called as configured (check ENDPOINT_NAME, that the endpoint is InService, and the function role's sagemaker:InvokeEndpoint permission; the record goes back to the queue)",
        failure,
      ),
      "endpoint",
      failure.endpointName,
      `check that ENDPOINT_NAME ("${failure.endpointName}") names an InService endpoint in this account and region, and that the function's role may call sagemaker:InvokeEndpoint on it`,
      options,
    );
  }
}

/** The endpoint refused the request for good: a 4xx from the model (the container said the input is bad). */
export class PermanentEndpointError extends PermanentError {
  override name = "PermanentEndpointError";
  constructor(
    readonly failure: EndpointFailure,
    options?: { cause?: unknown },
  ) {
    super(describe("the decision endpoint refused the request", failure), options);
  }
}

/**
 * The endpoint answered 200 with a body that is not a System One response for the questions asked.
 * Neither transient nor permanent: not retried within the invocation, and the records go back to
 * SQS (and to the DLQ after maxReceiveCount) rather than being rejected for a pipeline/adapter
 * version mismatch that is not the item's fault.
 */
export class InvalidEndpointResponseError extends PipelineError {
  override name = "InvalidEndpointResponseError";
  constructor(
    readonly endpointName: string,
    /** What is wrong with the body. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`the decision endpoint ${endpointName} answered with an invalid body: ${problem}`, options);
  }
}

function describe(prefix: string, failure: EndpointFailure): string {
  const status =
    failure.originalStatusCode !== undefined
      ? ` (model status ${failure.originalStatusCode})`
      : failure.httpStatus !== undefined
        ? ` (HTTP ${failure.httpStatus})`
        : "";
  const message = failure.originalMessage ?? failure.serviceMessage;
  const detail = message ? `: ${truncateText(message, 500)}` : "";
  return `${prefix}: ${failure.endpointName} ${failure.errorName}${status}${detail}`;
}
