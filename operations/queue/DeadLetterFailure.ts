import type { FailureRecord } from "../../contract/failures/FailureRecordSchema.js";

/** The failure record of a dead letter, as `decisions dlq list` shows it. */
export interface DeadLetterFailure {
  reason: string;
  /** The error's class name. */
  error: string;
  failureClass: FailureRecord["failure_class"];
  /** Receives when it last failed. */
  attempts: number;
  firstFailedAt: string;
  lastFailedAt: string;
}
