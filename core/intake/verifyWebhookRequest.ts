import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { WEBHOOK_TOLERANCE_SECONDS } from "../../contract/intake/index.js";
import { WebhookRefusedError } from "./errors.js";

/** What {@link verifyWebhookRequest} needs to know of the request. */
export interface WebhookRequest {
  /** The body exactly as received. */
  body: string;
  /** The request headers, names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * Checks a webhook request's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the sender's secret, through the `standardwebhooks` package's
 * `Webhook.verify` (which refuses a timestamp more than {@link WEBHOOK_TOLERANCE_SECONDS} from its
 * clock and compares signatures in constant time). When it refuses, the timestamp is read again
 * here only to say why: a clock too far behind or ahead, or a signature that does not match.
 *
 * @param secret the sender's secret (`whsec_…`), or undefined when none is configured (every
 *   request is then refused, saying how to configure one).
 * @param nowMs the clock the refusal's explanation is read with. Default `Date.now()`.
 * @returns the `webhook-id` (the sender's idempotency key).
 * @throws WebhookRefusedError with the reason.
 */
export function verifyWebhookRequest(
  secret: string | undefined,
  request: WebhookRequest,
  nowMs: number = Date.now(),
): string {
  if (secret === undefined)
    throw new WebhookRefusedError(
      "secret_not_configured",
      "webhook requests are refused: no sender secret is configured (locally, start with `decisions up --webhook-secret whsec_…`; on AWS, set the front door's secret in Secrets Manager)",
    );
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const signature = request.headers["webhook-signature"];
  if (!id || !timestamp || !signature)
    throw new WebhookRefusedError(
      "missing_headers",
      "sign the request the Standard Webhooks way: the webhook-id, webhook-timestamp and webhook-signature headers are all needed",
    );
  try {
    new Webhook(secret).verify(
      request.body,
      { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature },
      { jsonParse: false },
    );
    return id;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    throw refusalOf(timestamp, nowMs, error);
  }
}

/** Why the package refused: the timestamp's distance from the clock, else the signature. */
function refusalOf(timestamp: string, nowMs: number, cause: Error): WebhookRefusedError {
  const sentAt = Number(timestamp);
  const skew = Math.floor(nowMs / 1000) - sentAt;
  if (!Number.isInteger(sentAt))
    return new WebhookRefusedError(
      "missing_headers",
      `webhook-timestamp must be whole seconds since 1970 (UTC), got "${timestamp}"`,
      { cause },
    );
  if (skew > WEBHOOK_TOLERANCE_SECONDS)
    return new WebhookRefusedError(
      "stale_timestamp",
      `webhook-timestamp is ${skew} s old; at most ${WEBHOOK_TOLERANCE_SECONDS} s is accepted: sign each attempt (retries too) with the current time, and check the sender's clock`,
      { cause },
    );
  if (-skew > WEBHOOK_TOLERANCE_SECONDS)
    return new WebhookRefusedError(
      "future_timestamp",
      `webhook-timestamp is ${-skew} s ahead of this server's clock; at most ${WEBHOOK_TOLERANCE_SECONDS} s is accepted: check the sender's clock`,
      { cause },
    );
  return new WebhookRefusedError(
    "bad_signature",
    "webhook-signature does not match: sign `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256 under the shared secret (whsec_…) over the exact bytes sent",
    { cause },
  );
}
