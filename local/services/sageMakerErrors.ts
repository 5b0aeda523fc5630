/**
 * The error responses of the SageMaker runtime API as the gateway writes them: an HTTP status, the
 * `x-amzn-ErrorType` header the SDK's restJson protocol reads the error's type from, and a JSON
 * body whose members the SDK copies onto the error (`Message`, and for ModelError
 * `OriginalStatusCode`, `OriginalMessage`, `LogStreamArn`).
 */

/** One error response of the SageMaker runtime API. */
export interface SageMakerErrorResponse {
  status: number;
  /** The shape name the SDK maps to its class (`ModelError`, `ValidationError`, …). */
  type: string;
  body: Record<string, string | number>;
}

const ERROR_TYPE_NAMESPACE = "http://internal.amazon.com/coral/com.amazonaws.sagemaker.runtime/";

/** The `x-amzn-ErrorType` header value for an error type: `<type>:<namespace>` as the service sends it. */
export function errorTypeHeader(type: string): string {
  return `${type}:${ERROR_TYPE_NAMESPACE}`;
}

/**
 * The container answered with a non-2xx status: SageMaker returns 424 `ModelError` with the
 * container's status and body, and a message naming the variant's container ("primary").
 */
export function modelError(
  endpointName: string,
  region: string,
  status: number,
  body: string,
): SageMakerErrorResponse {
  const kind = status >= 500 ? "server" : "client";
  return {
    status: 424,
    type: "ModelError",
    body: {
      Message: `Received ${kind} error (${status}) from primary with message "${body}". See ${logStreamArn(endpointName, region)} for more information.`,
      OriginalStatusCode: status,
      OriginalMessage: body,
      LogStreamArn: logStreamArn(endpointName, region),
    },
  };
}

/** The container did not answer within the invocation timeout: a ModelError without a status. */
export function modelTimeoutError(endpointName: string, region: string): SageMakerErrorResponse {
  return {
    status: 424,
    type: "ModelError",
    body: {
      Message:
        "Your invocation timed out while waiting for a response from container primary. Review the latency metrics for each container in Amazon CloudWatch, resolve the issue, and try again.",
      LogStreamArn: logStreamArn(endpointName, region),
    },
  };
}

/** No endpoint of that name: 400 ValidationError, worded as SageMaker words it. */
export function endpointNotFound(endpointName: string, accountId: string): SageMakerErrorResponse {
  return {
    status: 400,
    type: "ValidationError",
    body: { Message: `Endpoint ${endpointName} of account ${accountId} not found.` },
  };
}

/** A request SageMaker would refuse before invoking (wrong path, too large a body). */
export function validationError(message: string): SageMakerErrorResponse {
  return { status: 400, type: "ValidationError", body: { Message: message } };
}

/** The container could not be reached at all: 503 ServiceUnavailable, which the SDK retries. */
export function serviceUnavailable(endpointName: string): SageMakerErrorResponse {
  return {
    status: 503,
    type: "ServiceUnavailable",
    body: {
      Message: `The endpoint ${endpointName} is temporarily unable to serve the request: its container is unreachable.`,
    },
  };
}

/** More invocations in flight than the gateway allows: 429 ThrottlingException, which the SDK retries. */
export function throttlingException(endpointName: string): SageMakerErrorResponse {
  return {
    status: 429,
    type: "ThrottlingException",
    body: { Message: `Rate exceeded for endpoint ${endpointName}.` },
  };
}

/** The gateway itself failed: 500 InternalFailure, which the SDK retries. */
export function internalFailure(cause: unknown): SageMakerErrorResponse {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return { status: 500, type: "InternalFailure", body: { Message: `An internal error occurred: ${reason}` } };
}

function logStreamArn(endpointName: string, region: string): string {
  return `arn:aws:logs:${region}:000000000000:log-group:/aws/sagemaker/Endpoints/${endpointName}`;
}
