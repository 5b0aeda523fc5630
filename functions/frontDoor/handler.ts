/**
 * The deployed front door function (behind API Gateway's REST API): configuration read once at
 * cold start, policies loaded once, the webhook secret read from Secrets Manager once, then the
 * adapter onto the router `decisions up` serves locally. See `readFrontDoorConfig` for the variables.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { IntakeIdempotency } from "../../core/intake/index.js";
import { loadPolicies } from "../../core/policy/index.js";
import { createFrontDoorHandler } from "./createFrontDoorHandler.js";
import { readFrontDoorConfig } from "./readFrontDoorConfig.js";
import { readWebhookSecret } from "./readWebhookSecret.js";

const here = dirname(fileURLToPath(import.meta.url));
// Bundled, the policies are copied beside the bundle; in the repository they are at its root.
const defaultPolicyDir = existsSync(join(here, "policies"))
  ? join(here, "policies")
  : join(here, "../../policies");

const config = readFrontDoorConfig(process.env, defaultPolicyDir);
const policies = await loadPolicies(config.policyDir);

/** The Lambda handler (API Gateway REST API proxy event → JSON answer). */
export const handler = createFrontDoorHandler({
  sqs: new SQSClient({}),
  queueUrls: config.queueUrls,
  policyNames: policies.names(),
  laneOfPolicy: (name) => policies.get(name)?.lane,
  webhookSecret: await webhookSecretOf(config.webhookSecretArn),
  idempotency: new IntakeIdempotency({
    persistenceStore: new DynamoDBPersistenceLayer({
      tableName: config.idempotencyTable,
      awsSdkV3Client: new DynamoDBClient({}),
    }),
  }),
});

/**
 * The senders' secret, or undefined while none is set (the placeholder Secrets Manager generated is
 * not a `whsec_` secret): webhook requests are then refused with 401 and the reason is logged once,
 * while the SigV4 route and the schema keep working.
 */
async function webhookSecretOf(secretArn: string | undefined): Promise<string | undefined> {
  if (secretArn === undefined) return undefined;
  try {
    return await readWebhookSecret(secretArn, process.env.AWS_SESSION_TOKEN ?? "");
  } catch (error) {
    process.stderr.write(
      `${JSON.stringify({ level: "ERROR", message: "webhook requests are refused until the secret is set", error: error instanceof Error ? error.message : String(error) })}\n`,
    );
    return undefined;
  }
}
