/**
 * Whether a failure reason logged by the decide function (`"<error class>: <message>"`) says only
 * that the pipeline was busy — the log-side reading of the function's own `isBusyFailure`: no call
 * could start or end before the deadline (`EndpointBusyError`, `DeadlineExceededError`), or the
 * endpoint answered at capacity (the container's 503/429, SageMaker's throttling), possibly after
 * the retries (`RetriesExhaustedError: … <that>`).
 */
export function isBusyReason(reason: string): boolean {
  // Anywhere in the reason: a record failed with its batch is logged as `whole batch: <class>: …`.
  if (/\b(EndpointBusyError|DeadlineExceededError)\b/.test(reason)) return true;
  return /ModelError \(model status (503|429)\)|ThrottlingException|\(HTTP 429\)/.test(reason);
}
