/**
 * The `decisions` command line. `runCli` is the entry point (bin/decisions.js calls it); commands
 * are listed in `COMMAND_REGISTRY` and live in `commands/`, loaded only when they run (this index
 * re-exports none of them, so importing it loads no command).
 */
export { COMMAND_REGISTRY, type CommandEntry, loadCommand, missingParts } from "./commandRegistry.js";
export { DEFAULT_START_KIND } from "./constants.js";
export { ensureServedModel } from "./ensureServedModel.js";
export { CommandModuleError, CommandUnavailableError, UsageError } from "./errors.js";
export { type RunCliOptions, runCli } from "./main.js";
export {
  type ParseCommandArgsOptions,
  type ParsedCommandArgs,
  parseCommandArgs,
} from "./parseCommandArgs.js";
export type { CliCommand, CliOutput } from "./types.js";
