import { join } from "node:path";
import { npmEnvironment } from "../support/npmEnvironment.js";
import { runCommand } from "./runCommand.js";

/**
 * The machine's own npm package folder (`<npm root -g>/npm`), the one the local base image copies.
 * npm is asked without the `npm_config_*` settings `environment` inherited from an npm run (see
 * {@link npmEnvironment}), so `npm run -s` or an inherited `npm_config_prefix` cannot change it.
 *
 * @throws {CommandFailedError} when `npm root -g` fails.
 */
export async function findNpmFolder(environment: NodeJS.ProcessEnv): Promise<string> {
  return join(await runCommand("npm", ["root", "-g"], { env: npmEnvironment(environment) }), "npm");
}
