/**
 * The adapter as a process of its own for the local stack: what `decisions serve` runs (the same
 * flags, the same settings table, the same `serve`), so that the stack (or a chaos test) can kill
 * it. Calls the server directly rather than through the CLI, which sits above `local/`.
 */
import { parseArgs } from "node:util";
import { readServerConfig, SERVER_SETTINGS } from "../../adapter/server/config.js";
import { ServerConfigError } from "../../adapter/server/errors.js";
import { serve } from "../../adapter/server/serve.js";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: Object.fromEntries(SERVER_SETTINGS.map((setting) => [setting.flag, { type: "string" as const }])),
  strict: true,
  allowPositionals: false,
});
const flags: Record<string, string | undefined> = {};
for (const [flag, value] of Object.entries(values)) if (typeof value === "string") flags[flag] = value;

try {
  process.exitCode = await serve(readServerConfig(process.env, flags));
} catch (error) {
  if (!(error instanceof ServerConfigError)) throw error;
  // As `decisions serve` answers bad settings: every problem, no stack trace, exit 2.
  process.stderr.write(`adapter: ${error.message}\n`);
  process.exitCode = 2;
}
