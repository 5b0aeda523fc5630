import type { Setting } from "./Setting.js";
import { nonEmptyTextSetting, textSetting } from "./settingSchemas.js";

/**
 * The deployed front door function's environment (`functions/frontDoor/readFrontDoorConfig.ts`
 * reads it at cold start; the CDK app's `FrontDoor` writes it).
 */
export const FRONT_DOOR_SETTINGS = {
  interactiveQueueUrl: {
    env: ["INTERACTIVE_QUEUE_URL"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the interactive lane's work queue (items whose policy names no lane, or `lane: interactive`)",
  },
  bulkQueueUrl: {
    env: ["BULK_QUEUE_URL"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the bulk lane's work queue (items whose policy says `lane: bulk`)",
  },
  idempotencyTable: {
    env: ["IDEMPOTENCY_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the table that keeps each request's first answer for its retries (Powertools idempotency; `id` key, `expiration` TTL)",
  },
  webhookSecretArn: {
    env: ["WEBHOOK_SECRET_ARN"],
    schema: textSetting,
    default: { text: "none: webhook requests are refused with 401" },
    doc: "the Secrets Manager secret holding the webhook senders' secret (`whsec_…`), read at cold start through the AWS Parameters and Secrets Lambda Extension",
  },
  policyDir: {
    env: ["POLICY_DIR"],
    schema: textSetting,
    default: { text: "the policies bundled beside the handler" },
    doc: "the folder of `*.yaml` policies: the names items may use and the lane each declares",
  },
} as const satisfies Record<string, Setting<unknown>>;
