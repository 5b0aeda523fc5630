/**
 * The decide function's entry point: configuration from the environment, read and validated once
 * at cold start, policies loaded once, then the middy handler. See `readDecideConfig` for the
 * variables.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SQSClient } from "@aws-sdk/client-sqs";
import { createDecideDeps } from "./createDecideDeps.js";
import { createDecideHandler } from "./createDecideHandler.js";
import { readDecideConfig } from "./readDecideConfig.js";

const here = dirname(fileURLToPath(import.meta.url));
// Bundled, the policies are copied beside the bundle; in the repository they are at its root.
const defaultPolicyDir = existsSync(join(here, "policies"))
  ? join(here, "policies")
  : join(here, "../../policies");

/** The Lambda handler (SQS event → `{batchItemFailures}`). */
export const handler = createDecideHandler(
  // The SQS client re-queues records that failed only because the pipeline was busy (core/flow).
  await createDecideDeps(readDecideConfig(process.env, defaultPolicyDir), { sqs: new SQSClient({}) }),
);
