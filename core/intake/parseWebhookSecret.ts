import { Webhook } from "standardwebhooks";
import { IntakeError } from "./errors.js";

/** A webhook sender's secret that is not a Standard Webhooks secret (configuration, not a request). */
export class WebhookSecretError extends IntakeError {
  override name = "WebhookSecretError";
}

/**
 * Checks a sender's secret once, where it is configured: `whsec_` followed by base64 of at least
 * 24 random bytes (Standard Webhooks recommends 24 to 64), as `decisions up --webhook-secret`
 * and the deployed secret give it.
 *
 * @returns the secret, unchanged.
 * @throws WebhookSecretError saying how to make one (`openssl rand -base64 32`).
 */
export function parseWebhookSecret(secret: string, where: string): string {
  const make = "make one with: echo whsec_$(openssl rand -base64 32)";
  if (!secret.startsWith("whsec_"))
    throw new WebhookSecretError(`${where} must start with whsec_ (a Standard Webhooks secret); ${make}`);
  const base64 = secret.slice("whsec_".length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || Buffer.from(base64, "base64").byteLength < 24)
    throw new WebhookSecretError(
      `${where} must be whsec_ and the base64 of at least 24 random bytes; ${make}`,
    );
  // The package's own reading of it, so a secret it would refuse fails here and not on a request.
  new Webhook(secret);
  return secret;
}
