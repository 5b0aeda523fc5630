/** One step of a capacity check that failed. */
export interface CapacityCheckFailure {
  /** What was being done: `read the endpoint`, `read the bulk queue`, `set the bulk lane's concurrency`. */
  step: string;
  error: unknown;
}

/**
 * A capacity check could not do every step. What it could do was done (the lanes' concurrency was
 * still set from what was read, to the values at minimum capacity when the endpoint was not read);
 * the next check, a minute later, tries again. Thrown after the metrics are published, so the
 * function's error alarm fires while the failures last.
 */
export class CapacityCheckError extends Error {
  override name = "CapacityCheckError";

  constructor(readonly failures: readonly CapacityCheckFailure[]) {
    super(
      `the capacity check could not ${failures.map((failure) => `${failure.step} (${messageOf(failure.error)})`).join("; ")}: check the controller's permissions (sagemaker:DescribeEndpoint, sqs:GetQueueAttributes, lambda:GetEventSourceMapping/UpdateEventSourceMapping) and that the endpoint, queues and event sources exist; the next check runs in a minute`,
      { cause: failures[0]?.error },
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
