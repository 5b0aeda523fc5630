import { DeadlineExceededError, RetriesExhaustedError } from "../common/errors.js";
import { EndpointBusyError, TransientEndpointError } from "./errors.js";

/**
 * Whether a record failed because the pipeline was busy, not because of anything wrong: the
 * endpoint said it is at capacity (503/429/throttling, after the retries the budget allowed), no
 * call could start before the deadline ({@link EndpointBusyError}), or the invocation ran out of
 * time before the record's turn ({@link DeadlineExceededError}: its work never started). Such a
 * record is re-queued with a delay rather than given back, so its receive count — which moves it
 * to the DLQ — counts real failures only. Anything else (a reset, a 500, DynamoDB down, an invalid
 * answer) is a real failure and goes back to SQS as before.
 */
export function isBusyFailure(error: unknown): boolean {
  if (error instanceof DeadlineExceededError || error instanceof EndpointBusyError) return true;
  if (error instanceof TransientEndpointError) return error.atCapacity;
  if (error instanceof RetriesExhaustedError) return isBusyFailure(error.cause);
  return false;
}
