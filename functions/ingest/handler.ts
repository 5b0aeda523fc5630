/**
 * The ingest function's entry point: configuration read and validated once at cold start, the
 * policies loaded once, then the middy handler. See `readIngestConfig` for the variables.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createIngestDeps } from "./createIngestDeps.js";
import { createIngestHandler } from "./createIngestHandler.js";
import { readIngestConfig } from "./readIngestConfig.js";

const here = dirname(fileURLToPath(import.meta.url));
// Bundled, the policies are copied beside the bundle; in the repository they are at its root.
const defaultPolicyDir = existsSync(join(here, "policies"))
  ? join(here, "policies")
  : join(here, "../../policies");

/** The Lambda handler (S3 / EventBridge event or checkpoint → `{objects, pending}`). */
export const handler = createIngestHandler(
  await createIngestDeps(readIngestConfig(process.env, defaultPolicyDir)),
);
