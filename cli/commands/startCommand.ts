/**
 * `decisions start` (what `npm start` runs): the decision adapter on an embedded default model,
 * generated on first use, so a fresh clone serves real llama.cpp decisions with no download.
 * The same as `decisions serve --generate <kind>`.
 */
import { isModelKind, MODEL_KINDS } from "../../adapter/models/modelKinds.js";
import { DEFAULT_START_KIND } from "../constants.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand } from "../types.js";
import { serveWithFlags, settingFlags, settingsUsage, settingValues } from "./serveCommand.js";

/** Usage text of `decisions start`. */
export function startUsage(): string {
  return [
    `usage: decisions start [--kind ${MODEL_KINDS.join("|")}] [serve options]`,
    "",
    `Generates (once) a model of the kind (default ${DEFAULT_START_KIND}) and serves it, as`,
    "`decisions serve --generate <kind>` does.",
    "",
    "serve options (environment variables; default):",
    settingsUsage(),
  ].join("\n");
}

/** The `start` sub-command: generate (once) the default model and its manifest, then serve it. */
export const startCommand: CliCommand = {
  async run(args) {
    const usage = startUsage();
    const { values } = parseCommandArgs({
      args,
      options: { help: { type: "boolean", short: "h" }, kind: { type: "string" }, ...settingFlags() },
      usage,
    });
    const { help, kind = DEFAULT_START_KIND, ...settings } = values;
    if (help === true) {
      process.stdout.write(usage);
      return 0;
    }
    if (!isModelKind(kind))
      throw new UsageError(`--kind must be one of ${MODEL_KINDS.join(", ")}, got "${kind}"`);
    const flags = settingValues(settings);
    if (flags.model !== undefined) throw new UsageError("start serves a generated model: use serve --model");
    return serveWithFlags(flags, kind);
  },
};
