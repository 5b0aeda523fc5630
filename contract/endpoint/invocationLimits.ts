/**
 * SageMaker's own limit on one InvokeEndpoint call: the container must answer within 60 seconds,
 * after which the caller gets a `ModelError` ("Your invocation timed out while waiting for a
 * response from container …", original status 0) instead of the container's answer
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/API_runtime_InvokeEndpoint.html). Its clock starts
 * before the adapter's.
 */
export const SAGEMAKER_INVOCATION_TIMEOUT_SECONDS = 60;

/**
 * How far below {@link SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} the adapter's own deadline
 * (`SEMIF_REQUEST_TIMEOUT_MS`) must end: SageMaker's hop to the instance and back, the answer's
 * transfer, and the clock skew between SageMaker's timer and the container's. With this margin the
 * caller gets the adapter's 504 (its own deadline, a known "busy") rather than SageMaker's timeout.
 */
export const ADAPTER_DEADLINE_MARGIN_SECONDS = 5;

/** The longest adapter deadline an endpoint may be configured with: 60 − 5 = 55 seconds. */
export const MAX_ADAPTER_DEADLINE_SECONDS =
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS - ADAPTER_DEADLINE_MARGIN_SECONDS;
