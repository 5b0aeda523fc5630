/**
 * The front door's bounds, stated once for the router, the CDK app, `decisions submit --url`
 * and the docs.
 */

/** Most work items in one request (`{"items": [...]}`); more is a 413. */
export const MAX_INTAKE_ITEMS = 100;

/**
 * Largest request body, in bytes (1 MiB): more is a 413. It is also the most one SendMessageBatch
 * carries and the largest SQS message, so an item that passes it fits a message.
 */
export const MAX_INTAKE_BODY_BYTES = 1024 * 1024;

/**
 * How far a webhook's `webhook-timestamp` may be from the front door's clock, in seconds, before
 * the request is refused (the `standardwebhooks` package's fixed tolerance: 5 minutes either way).
 */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** How long a request's first answer is kept for its retries, in seconds (24 hours). */
export const INTAKE_IDEMPOTENCY_SECONDS = 24 * 60 * 60;

/** The request header that names a retry's key (the IETF Idempotency-Key header). */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** Longest `Idempotency-Key` accepted, in characters. */
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;

/** The answer header that says an answer is a retry's first answer, given again. */
export const IDEMPOTENT_REPLAY_HEADER = "idempotent-replayed";
