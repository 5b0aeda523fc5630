/** Inputs of {@link decideMaxConcurrency}. */
export interface MaxConcurrencyInputs {
  /** The endpoint's most instances (its autoscaling ceiling). */
  maxInstances: number;
  /** Requests one instance admits at once (running + waiting) before answering 503. */
  requestsPerInstance: number;
  /** InvokeEndpoint calls one decide invocation has in flight (`MAX_CONCURRENT_GROUPS`). */
  groupsPerInvocation: number;
}

/** Lowest and highest `MaximumConcurrency` an SQS event source accepts. */
export const SQS_MAX_CONCURRENCY_RANGE = { min: 2, max: 1000 } as const;

/**
 * The SQS event source's maximum concurrency, derived from the endpoint's maximum capacity:
 *
 * `clamp(floor(maxInstances × requestsPerInstance / groupsPerInvocation), 2, 1000)`
 *
 * so that the decide invocations running at once never have more InvokeEndpoint calls in flight
 * than the endpoint can admit when scaled out fully. The event source stops polling at this
 * concurrency instead of invoking a throttled function: a throttled invocation returns its batch to
 * the queue and counts a receive per message, which pushes messages towards the DLQ without any
 * attempt at a decision. (When the floor is below 2 the event source's minimum of 2 applies, and
 * the adapter's 503 answers are retried as transient failures.)
 *
 * @example
 * ```ts
 * decideMaxConcurrency({ maxInstances: 2, requestsPerInstance: 9, groupsPerInvocation: 4 }); // 4
 * ```
 */
export function decideMaxConcurrency(inputs: MaxConcurrencyInputs): number {
  const fits = Math.floor((inputs.maxInstances * inputs.requestsPerInstance) / inputs.groupsPerInvocation);
  return Math.min(SQS_MAX_CONCURRENCY_RANGE.max, Math.max(SQS_MAX_CONCURRENCY_RANGE.min, fits));
}
