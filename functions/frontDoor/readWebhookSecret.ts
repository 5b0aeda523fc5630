import { parseWebhookSecret } from "../../core/intake/index.js";

/** The AWS Parameters and Secrets Lambda Extension's port (its default). */
const EXTENSION_PORT = 2773;

/**
 * Reads the webhook senders' secret from Secrets Manager at cold start through the AWS Parameters
 * and Secrets Lambda Extension (a layer the CDK app adds; it listens on localhost and caches), so
 * the function needs no Secrets Manager client and the secret is never in the template or the
 * function's environment. The extension asks for the session token as its SSRF guard.
 *
 * @param sessionToken the function's `AWS_SESSION_TOKEN`.
 * @throws Error naming the secret when the extension refuses or the value is not a `whsec_` secret.
 */
export async function readWebhookSecret(secretArn: string, sessionToken: string): Promise<string> {
  const url = `http://localhost:${EXTENSION_PORT}/secretsmanager/get?secretId=${encodeURIComponent(secretArn)}`;
  const answer = await fetch(url, { headers: { "X-Aws-Parameters-Secrets-Token": sessionToken } });
  if (!answer.ok)
    throw new Error(
      `the webhook secret ${secretArn} could not be read through the Parameters and Secrets extension (HTTP ${answer.status}): check the layer and secretsmanager:GetSecretValue`,
    );
  const { SecretString } = (await answer.json()) as { SecretString?: unknown };
  if (typeof SecretString !== "string")
    throw new Error(`the webhook secret ${secretArn} holds no SecretString`);
  return parseWebhookSecret(SecretString.trim(), `the secret ${secretArn}`);
}
