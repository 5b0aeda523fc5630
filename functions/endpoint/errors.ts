/**
 * Errors of the decision-endpoint client, translated from the SageMaker runtime client's errors
 * where they enter ({@link classifyEndpointError}). Fields carry the data; nothing needs parsing.
 */
import { PermanentError, PipelineError, TransientError } from "../shared/errors.js";

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
}

/** The endpoint may answer if asked again: the model's 503/504 (busy, deadline), throttling, SageMaker 5xx, timeouts, resets. */
export class TransientEndpointError extends TransientError {
  override name = "TransientEndpointError";
  constructor(
    readonly failure: EndpointFailure,
    options?: { cause?: unknown },
  ) {
    super(describe("the decision endpoint failed for now", failure), options);
  }
}

/** The endpoint refused the request for good: a 4xx from the model, or SageMaker's validation error. */
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
  const detail = failure.originalMessage ? `: ${failure.originalMessage.slice(0, 500)}` : "";
  return `${prefix}: ${failure.endpointName} ${failure.errorName}${status}${detail}`;
}
