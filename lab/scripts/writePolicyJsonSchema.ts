/**
 * Regenerates `policies/policy.schema.json` from the zod schema, then formats it with the
 * project's formatter (so `npm run lint` accepts it):
 * `node_modules/.bin/node --import tsx lab/scripts/writePolicyJsonSchema.ts`.
 * A test fails when the committed schema differs from what the zod schema generates.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { POLICY_JSON_SCHEMA_PATH, policyJsonSchemaText } from "../../core/policy/policyJsonSchema.js";

/** Writes and formats the schema file under `root` (default: the repository root); returns its path. */
export async function writePolicyJsonSchema(
  root = fileURLToPath(new URL("../../", import.meta.url)),
): Promise<string> {
  const path = join(root, POLICY_JSON_SCHEMA_PATH);
  await writeFile(path, policyJsonSchemaText());
  await promisify(execFile)(join(root, "node_modules/.bin/biome"), ["format", "--write", path], {
    cwd: root,
  });
  return path;
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(`wrote ${await writePolicyJsonSchema()}`);
}
