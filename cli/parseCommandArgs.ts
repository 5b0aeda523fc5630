import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./errors.js";

/** Options of {@link parseCommandArgs}: those of `util.parseArgs`, strict, plus the command's usage. */
export interface ParseCommandArgsOptions<T extends ParseArgsConfig["options"]> {
  /** The arguments after the command's name. */
  args: readonly string[];
  /** The flags the command takes (`util.parseArgs` options). */
  options: T;
  /** Whether positional arguments are allowed. Default false. */
  allowPositionals?: boolean;
  /** The command's usage text, carried by the {@link UsageError}. */
  usage?: string;
}

/** What {@link parseCommandArgs} returns: the flag values, typed from the options, and the positionals. */
export type ParsedCommandArgs<T extends ParseArgsConfig["options"]> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
>;

/**
 * Parses a command's arguments with node's `util.parseArgs` in strict mode: `--kind=x` and
 * `--kind x` both work; an unknown flag, a flag without its value, or a positional where none is
 * allowed is a {@link UsageError}.
 *
 * One normalisation comes first: a negative number right after a string flag is that flag's value
 * (`--gpu-layers -1`). `parseArgs` refuses a value starting with a dash there as ambiguous, and no
 * flag of this CLI looks like a negative number, so nothing is lost.
 *
 * @throws UsageError with the parser's message.
 * @example
 * const { values } = parseCommandArgs({ args, options: { kind: { type: "string" } } });
 */
export function parseCommandArgs<T extends ParseArgsConfig["options"]>(
  options: ParseCommandArgsOptions<T>,
): ParsedCommandArgs<T> {
  const flags: Readonly<Record<string, { type: string } | undefined>> = options.options ?? {};
  const args: string[] = [];
  for (const arg of options.args) {
    const previous = args.at(-1);
    const flag = previous?.startsWith("--") === true ? flags[previous.slice(2)] : undefined;
    if (flag?.type === "string" && /^-\d+$/.test(arg)) args[args.length - 1] = `${previous}=${arg}`;
    else args.push(arg);
  }
  try {
    const parsed = parseArgs({
      args,
      options: options.options,
      strict: true,
      allowPositionals: options.allowPositionals ?? false,
    });
    return { values: parsed.values, positionals: parsed.positionals } as ParsedCommandArgs<T>;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), {
      cause: error,
      usage: options.usage,
    });
  }
}
