import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { npmEnvironment } from "../support/npmEnvironment.js";
import { runCommand } from "./runCommand.js";

/**
 * The machine's own npm package folder, the one the local base image copies.
 *
 * Under an npm run (`npm test`), npm names itself in `npm_execpath` (`<folder>/bin/npm-cli.js`):
 * that folder is used. Asking `npm root -g` there would not do: npm puts the project's
 * `node_modules/.bin` first on PATH, whose `node` is the project's Node.js 22 package, and a global
 * prefix computed from that `node` is a folder without npm. Otherwise `npm root -g` is asked
 * without the inherited `npm_config_*` settings (see {@link npmEnvironment}), so `npm run -s` or an
 * inherited `npm_config_prefix` cannot change the answer.
 *
 * @throws {CommandFailedError} when `npm root -g` fails.
 */
export async function findNpmFolder(environment: NodeJS.ProcessEnv): Promise<string> {
  const execPath = environment.npm_execpath;
  if (execPath !== undefined && basename(execPath) === "npm-cli.js") {
    const folder = dirname(dirname(execPath));
    if (existsSync(join(folder, "package.json"))) return folder;
  }
  return join(await runCommand("npm", ["root", "-g"], { env: npmEnvironment(environment) }), "npm");
}
