import { SageMakerRuntimeClient, type SageMakerRuntimeClientConfig } from "@aws-sdk/client-sagemaker-runtime";

/**
 * A SageMaker runtime client with the SDK's retries off (`maxAttempts: 1`), so the pipeline's
 * {@link RetryPolicy} is the only one. Region, credentials and endpoint come from the SDK's standard
 * configuration (`AWS_REGION`, `AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME`, …) unless given.
 */
export function createSageMakerRuntimeClient(
  config: SageMakerRuntimeClientConfig = {},
): SageMakerRuntimeClient {
  return new SageMakerRuntimeClient({ ...config, maxAttempts: 1 });
}
