import { httpStatusOf, isTransientNetworkError } from "../common/isTransientNetworkError.js";
import { OutcomeStoreError, OutcomesTableConfigurationError, TransientOutcomeStoreError } from "./errors.js";

/** DynamoDB error names that mean "try again later". */
const TRANSIENT_DYNAMODB_ERRORS = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "InternalServerError",
  "ServiceUnavailable",
  "TransactionConflictException",
  "LimitExceededException",
]);

/** DynamoDB error names that mean the table, the role or the credentials are not as configured. */
const CONFIGURATION_ERRORS = new Set([
  "ResourceNotFoundException",
  "AccessDeniedException",
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "ExpiredTokenException",
  "MissingAuthenticationTokenException",
]);

/**
 * Translates a DynamoDB client error (other than the conditional check, handled by the store) into
 * the pipeline's classes: throttling, 5xx and connection failures (`ECONNREFUSED` carries no
 * `$retryable`) are transient; a missing table, access denied or refused credentials are an
 * {@link OutcomesTableConfigurationError}; the rest is an {@link OutcomeStoreError}.
 */
export function classifyStoreError(
  error: unknown,
  tableName: string,
): TransientOutcomeStoreError | OutcomesTableConfigurationError | OutcomeStoreError {
  const fields = (error ?? {}) as { name?: unknown; code?: unknown; $retryable?: unknown };
  const errorName =
    typeof fields.code === "string" && (fields.name === "Error" || fields.name === undefined)
      ? fields.code
      : typeof fields.name === "string"
        ? fields.name
        : "Error";
  if (CONFIGURATION_ERRORS.has(errorName)) {
    return new OutcomesTableConfigurationError(tableName, errorName, { cause: error });
  }
  const status = httpStatusOf(error);
  const transient =
    TRANSIENT_DYNAMODB_ERRORS.has(errorName) ||
    isTransientNetworkError(error) ||
    fields.$retryable !== undefined ||
    (status !== undefined && status >= 500);
  return transient
    ? new TransientOutcomeStoreError(tableName, errorName, { cause: error })
    : new OutcomeStoreError(tableName, errorName, { cause: error });
}
