/**
 * Writes functions/README.md's environment table from the settings kit (`contract/settings`). Run
 * after adding a function or a setting:
 *
 *     node --import tsx lab/scripts/writeFunctionsReadme.ts
 *
 * test/docs/functionsReadme.test.ts fails while the committed page is stale.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { functionsReadme } from "./architecture/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const file = new URL("../../functions/README.md", import.meta.url);
await writeFile(file, functionsReadme(await readFile(file, "utf8"), root));
process.stdout.write(`wrote ${file.pathname}\n`);
