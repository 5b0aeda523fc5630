/**
 * Writes docs/architecture.md's generated blocks — the part table, the floors and the entry
 * points — from the table of parts and the entry points in `lab/scripts/architecture`. Run after
 * adding a part, a sub-folder, an import between parts or a kind of entry point:
 *
 *     node --import tsx lab/scripts/writeArchitecturePage.ts
 *
 * test/docs/architecturePage.test.ts fails while the committed page is stale.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { architecturePage } from "./architecture/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const file = new URL("../../docs/architecture.md", import.meta.url);
await writeFile(file, architecturePage(await readFile(file, "utf8"), root));
process.stdout.write(`wrote ${file.pathname}\n`);
