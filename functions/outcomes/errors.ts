import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { ConfigurationError, PipelineError, TransientError } from "../common/errors.js";

/**
 * An outcome for this (policy, id) exists already: the first one stands (a redelivered or
 * duplicate message). Carries the stored item, unmarshalled; `existing` is the raw item when it
 * does not match the outcome schema.
 */
export class OutcomeAlreadyRecordedError extends PipelineError {
  override name = "OutcomeAlreadyRecordedError";
  constructor(
    readonly policy: string,
    readonly id: string,
    /** The stored outcome. */
    readonly existing: Outcome | Record<string, unknown> | undefined,
    options?: { cause?: unknown },
  ) {
    super(`an outcome for ${policy}/${id} is already recorded`, options);
  }
}

/** DynamoDB could not take the write for now (throttling, 5xx, refused or reset connection, timeout). */
export class TransientOutcomeStoreError extends TransientError {
  override name = "TransientOutcomeStoreError";
  constructor(
    readonly tableName: string,
    /** The SDK error's name or the Node error code. */
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(`the outcomes table ${tableName} is unavailable for now (${errorName})`, options);
  }
}

/**
 * DynamoDB refused the write for a reason retrying will not fix (validation, missing table, access).
 * Not retried; the record goes back to SQS, since no outcome could be written for it.
 */
export class OutcomeStoreError extends PipelineError {
  override name = "OutcomeStoreError";
  constructor(
    readonly tableName: string,
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(`the outcomes table ${tableName} refused the write (${errorName})`, options);
  }
}

/**
 * The outcomes table cannot be written as the function is configured: it does not exist under
 * that name in this account and region (`ResourceNotFoundException`), or the role may not write
 * it (`AccessDeniedException`), or the credentials are refused. A {@link ConfigurationError}: the
 * record goes back, nothing is written, a person must fix the configuration.
 */
export class OutcomesTableConfigurationError extends ConfigurationError {
  override name = "OutcomesTableConfigurationError";
  constructor(
    readonly tableName: string,
    /** The SDK error's name. */
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the outcomes table ${tableName} cannot be written as configured (${errorName})${detailOf(options?.cause)}`,
      "outcomes-table",
      tableName,
      `check that OUTCOMES_TABLE ("${tableName}") names an existing table in this account and region, and that the function's role may call dynamodb:PutItem on it`,
      options,
    );
  }
}

function detailOf(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : "";
  return message === "" ? "" : `: ${message.length > 300 ? `${message.slice(0, 299)}…` : message}`;
}
