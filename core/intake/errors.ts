/**
 * The front door's errors. Each maps to one HTTP answer by class (`routeIntakeRequest`), never by
 * its text; each carries what the answer needs as data.
 */
import type { ItemProblem } from "../../contract/intake/index.js";

/** Base class of the front door's refusals. */
export class IntakeError extends Error {
  override name = "IntakeError";
}

/** Why a webhook request was refused (401). */
export type WebhookRefusal =
  | "secret_not_configured"
  | "missing_headers"
  | "stale_timestamp"
  | "future_timestamp"
  | "bad_signature"
  | "no_sigv4_caller";

/**
 * A request whose caller is not established: a webhook whose Standard Webhooks signature does not
 * hold (headers missing, a timestamp outside the tolerance — clock skew, or a replay of an old
 * request —, a signature made with another secret or over another body), or a request on the
 * SigV4 route that API Gateway named no caller for. Answered 401 with `reason`.
 */
export class WebhookRefusedError extends IntakeError {
  override name = "WebhookRefusedError";
  /** @param reason which check failed. */
  constructor(
    readonly reason: WebhookRefusal,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A refusal whose answer carries data beside its message: what the caller needs to mend the request. */
export class DetailedIntakeError<Details> extends IntakeError {
  override name = "DetailedIntakeError";
  constructor(
    message: string,
    readonly details: Details,
  ) {
    super(message);
  }
}

/** The request's body is not a work item or a batch of them (400), with every problem found. */
export class InvalidItemsError extends DetailedIntakeError<{
  /** Each invalid item's index, field path and rule. */
  problems: readonly ItemProblem[];
}> {
  override name = "InvalidItemsError";
}

/** The body (or its item count) is larger than the front door takes (413). */
export class IntakeTooLargeError extends IntakeError {
  override name = "IntakeTooLargeError";
}

/** An item names a policy this deployment does not have (404). */
export class UnknownIntakePolicyError extends DetailedIntakeError<{
  /** The policies this deployment knows. */
  knownPolicies: readonly string[];
}> {
  override name = "UnknownIntakePolicyError";
}

/**
 * Some items could not be put on their lane's queue (SQS refused or failed): answered 503 and
 * retryable. Items that did reach a queue are decided once; sent again under the same key they are
 * duplicates the pipeline drops, so a retry never makes a second outcome.
 */
export class IntakeSendError extends IntakeError {
  override name = "IntakeSendError";
}
