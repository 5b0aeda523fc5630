import { FRONT_DOOR_SETTINGS } from "../../contract/settings/frontDoorSettings.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/** The deployed front door function's configuration, read once at cold start. */
export interface FrontDoorConfig {
  /** `INTERACTIVE_QUEUE_URL` and `BULK_QUEUE_URL` (required). */
  queueUrls: { interactive: string; bulk: string };
  /** `IDEMPOTENCY_TABLE` (required). */
  idempotencyTable: string;
  /** `WEBHOOK_SECRET_ARN`: undefined refuses webhook requests. */
  webhookSecretArn: string | undefined;
  /** `POLICY_DIR`. Default: the caller's default (beside the bundle). */
  policyDir: string;
}

/**
 * Reads and validates the function's environment (each variable's parser, default and meaning are
 * its entry in `contract/settings/frontDoorSettings.ts`).
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readFrontDoorConfig(
  env: Readonly<Record<string, string | undefined>>,
  defaultPolicyDir: string,
): FrontDoorConfig {
  const values = parseEnvironment("front-door", FRONT_DOOR_SETTINGS, env);
  return {
    queueUrls: { interactive: values.interactiveQueueUrl, bulk: values.bulkQueueUrl },
    idempotencyTable: values.idempotencyTable,
    webhookSecretArn: values.webhookSecretArn === "" ? undefined : values.webhookSecretArn,
    policyDir: values.policyDir || defaultPolicyDir,
  };
}
