import { secretProblemOf } from "../policy/policySchema.js";
import { DeliverySecretError } from "./errors.js";

/**
 * The Standard Webhooks secret a target's `secret` names: a literal `whsec_…` as written, or for
 * `env:NAME` the value of NAME in `env` (read once, where deliveries start).
 *
 * @throws DeliverySecretError when the variable is not set, or its value is no `whsec_` secret of
 *   24–64 bytes.
 */
export function resolveSecret(
  target: string,
  secret: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (!secret.startsWith("env:")) return secret;
  const name = secret.slice("env:".length);
  const value = env[name];
  if (value === undefined || value === "")
    throw new DeliverySecretError(
      target,
      `its secret names the environment variable ${name}, which is not set: export ${name}=whsec_… before starting`,
    );
  const problem = secretProblemOf(value);
  if (problem !== undefined)
    throw new DeliverySecretError(
      target,
      `the environment variable ${name} is no Standard Webhooks secret: it ${problem}`,
    );
  return value;
}
