/**
 * Writes the published JSON Schemas of the wire formats to `contract/schemas/<name>.schema.json`, from the
 * zod schemas of `contract/wire` (`jsonSchemaOf`), and the work item's (`work-item.schema.json`, from
 * `contract/workItem`'s `workItemJsonSchema`, served by the front door). Run after changing either:
 *
 *     node --import tsx lab/scripts/writeWireSchemas.ts
 *
 * test/contract/wire/jsonSchemaOf.test.ts and test/contract/workItem/workItemJsonSchema.test.ts fail
 * while the committed copies are stale.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { jsonSchemaOf, WIRE_SCHEMA_NAMES } from "../../contract/wire/index.js";
import { workItemJsonSchema } from "../../contract/workItem/workItemJsonSchema.js";

const folder = new URL("../../contract/schemas/", import.meta.url);
await mkdir(folder, { recursive: true });
for (const name of WIRE_SCHEMA_NAMES) {
  const file = new URL(`${name}.schema.json`, folder);
  await writeFile(file, `${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`);
  process.stdout.write(`wrote ${file.pathname}\n`);
}
const workItemFile = new URL("work-item.schema.json", folder);
await writeFile(workItemFile, `${JSON.stringify(workItemJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${workItemFile.pathname}\n`);
// Laid out as the linter wants it, so `npm run lint` passes on the committed copies.
const biome = new URL("../../node_modules/.bin/biome", import.meta.url).pathname;
execFileSync(biome, ["format", "--write", folder.pathname], { stdio: "inherit" });
