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
  /** Which check failed. */
  readonly reason: WebhookRefusal;
  constructor(reason: WebhookRefusal, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** The request's body is not a work item or a batch of them (400), with every problem found. */
export class InvalidItemsError extends IntakeError {
  override name = "InvalidItemsError";
  /** Each invalid item's index, field path and rule. */
  readonly problems: readonly ItemProblem[];
  constructor(message: string, problems: readonly ItemProblem[]) {
    super(message);
    this.problems = problems;
  }
}

/** The body (or its item count) is larger than the front door takes (413). */
export class IntakeTooLargeError extends IntakeError {
  override name = "IntakeTooLargeError";
}

/** An item names a policy this deployment does not have (404). */
export class UnknownIntakePolicyError extends IntakeError {
  override name = "UnknownIntakePolicyError";
  /** The policies this deployment knows. */
  readonly knownPolicies: readonly string[];
  constructor(message: string, knownPolicies: readonly string[]) {
    super(message);
    this.knownPolicies = knownPolicies;
  }
}

/**
 * Some items could not be put on their lane's queue (SQS refused or failed): answered 503 and
 * retryable. Items that did reach a queue are decided once; sent again under the same key they are
 * duplicates the pipeline drops, so a retry never makes a second outcome.
 */
export class IntakeSendError extends IntakeError {
  override name = "IntakeSendError";
}
