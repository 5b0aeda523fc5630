import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { PipelineError, TransientError } from "../shared/errors.js";

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
