import { Webhook } from "standardwebhooks";

/** The Standard Webhooks headers of one attempt. */
export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * Signs one attempt the Standard Webhooks way with the `standardwebhooks` package: `webhook-id`
 * (the delivery id), `webhook-timestamp` (`at`, whole seconds: each attempt is signed afresh, so a
 * retry is never refused as stale) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`).
 */
export function signDelivery(secret: string, deliveryId: string, body: string, at: Date): WebhookHeaders {
  const seconds = Math.floor(at.getTime() / 1000);
  const timestamp = new Date(seconds * 1000);
  return {
    "webhook-id": deliveryId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": new Webhook(secret).sign(deliveryId, timestamp, body),
  };
}
