import type { ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.js";
import { type ParsedCommandArgs, parseCommandArgs } from "./parseCommandArgs.js";

/** Options of {@link parseSubCommandArgs}. */
export interface ParseSubCommandArgsOptions<S extends string, T extends ParseArgsConfig["options"]> {
  /** The command's name, for messages (`jobs` in `--out is not an option of "jobs list"`). */
  command: string;
  /** The arguments after the command's name: the sub-command first. */
  args: readonly string[];
  /** The flags of every sub-command (`util.parseArgs` options). */
  options: T;
  /** Per sub-command, the flags it takes besides {@link sharedFlags}; its keys are the sub-commands. */
  subFlags: Readonly<Record<S, readonly string[]>>;
  /** The flags every sub-command takes (`help` among them). */
  sharedFlags: readonly string[];
  /** Whether positional arguments are allowed after the sub-command. Default false. */
  allowPositionals?: boolean;
  /** The usage text, carried by every {@link UsageError} and printed for help. */
  usage: string;
}

/** What {@link parseSubCommandArgs} found: a request for help, or a sub-command and its arguments. */
export type ParsedSubCommandArgs<S extends string, T extends ParseArgsConfig["options"]> =
  | { help: true }
  | ({ help: false; sub: S } & ParsedCommandArgs<T>);

/**
 * Parses `<command> <sub> [flags] [positionals]` as the commands with sub-commands take it: `help`,
 * `--help` or `-h` as the sub-command or among the flags is a request for help; a missing or
 * unknown sub-command, or a flag that sub-command does not take, is a {@link UsageError}.
 *
 * @throws UsageError as {@link parseCommandArgs} does, and for the cases above.
 * @example
 * const parsed = parseSubCommandArgs({ command: "jobs", args, options: FLAGS, subFlags, sharedFlags, usage });
 * if (parsed.help) stdout.write(usage);
 */
export function parseSubCommandArgs<S extends string, T extends ParseArgsConfig["options"]>(
  options: ParseSubCommandArgsOptions<S, T>,
): ParsedSubCommandArgs<S, T> {
  const { usage } = options;
  const [sub, ...rest] = options.args;
  if (sub === "help" || sub === "--help" || sub === "-h") return { help: true };
  if (sub === undefined || !Object.hasOwn(options.subFlags, sub)) {
    throw new UsageError(sub === undefined ? "a sub-command is needed" : `unknown sub-command "${sub}"`, {
      usage,
    });
  }
  const parsed = parseCommandArgs({
    args: rest,
    options: options.options,
    allowPositionals: options.allowPositionals ?? false,
    usage,
  });
  if ((parsed.values as { help?: unknown }).help === true) return { help: true };
  const taken = options.subFlags[sub as S];
  for (const flag of Object.keys(parsed.values)) {
    if (!taken.includes(flag) && !options.sharedFlags.includes(flag)) {
      throw new UsageError(`--${flag} is not an option of "${options.command} ${sub}"`, { usage });
    }
  }
  return { help: false, sub: sub as S, ...parsed };
}
