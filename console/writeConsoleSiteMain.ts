/**
 * Writes the review console's static site (what `buildConsoleAssets` builds, less the local
 * `config.json`) into a folder and
 * prints `{"files": [...], "contentSecurityPolicy": "..."}` on stdout. The CDK app runs this as a
 * child process at synth (named by path, not imported: infra/ imports only infra/ and contract/,
 * and esbuild is a build tool), then deploys the folder to the console's bucket and serves the
 * pages with this content security policy.
 *
 *     node --import tsx console/writeConsoleSiteMain.ts <folder>
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  buildConsoleAssets,
  CONSOLE_CONFIG_FILE,
  CONSOLE_CONTENT_SECURITY_POLICY,
} from "./buildConsoleAssets.js";

const folder = process.argv[2];
if (folder === undefined || folder === "") {
  process.stderr.write("usage: writeConsoleSiteMain.ts <folder>\n");
  process.exit(2);
}
const assets = await buildConsoleAssets();
// The deployment writes its own config.json (the API's base, the sign-in) beside these files.
assets.delete(CONSOLE_CONFIG_FILE);
await mkdir(folder, { recursive: true });
for (const [name, asset] of assets) await writeFile(join(folder, name), asset.body);
process.stdout.write(
  `${JSON.stringify({ files: [...assets.keys()].sort(), contentSecurityPolicy: CONSOLE_CONTENT_SECURITY_POLICY })}\n`,
);
