/**
 * Writes docs/configuration.md from the settings kit, the server's table and the CDK app's knobs
 * (`configurationPage`). Run after changing a setting:
 *
 *     node --import tsx lab/scripts/writeConfigurationPage.ts
 *
 * test/lab/scripts/configurationPage.test.ts fails while the committed page is stale.
 */
import { writeFile } from "node:fs/promises";
import { configurationPage } from "./configurationPage.js";

const file = new URL("../../docs/configuration.md", import.meta.url);
await writeFile(file, configurationPage());
process.stdout.write(`wrote ${file.pathname}\n`);
