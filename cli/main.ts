/**
 * The `decisions` command: one entry point for every task of the decision engine and, later, the
 * pipeline. Each sub-command lives in its own module under `commands/` and is loaded only when it
 * runs; `decisions help` reads the registry alone and loads none.
 */
import { COMMAND_REGISTRY, type CommandEntry, loadCommand, missingParts } from "./commandRegistry.js";
import { CommandUnavailableError, UsageError } from "./errors.js";
import { inertLines } from "./inertText.js";
import type { CliOutput } from "./types.js";

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** The sub-commands. Default {@link COMMAND_REGISTRY}. */
  registry?: readonly CommandEntry[];
  /** Where `help` and errors are written. Default: the process's stdout and stderr. */
  output?: Partial<CliOutput>;
}

const HELP_FLAGS: readonly string[] = ["help", "--help", "-h"];

/**
 * Runs the CLI with the given arguments (without `node` and the script path).
 * `decisions`, `decisions help` and `decisions help <command>` print usage;
 * `decisions <command> …` runs the command.
 *
 * @returns the exit code: 0 on success, 1 on failure, 2 on a usage error (no command, an unknown
 *   or unavailable command, bad arguments).
 * @example
 * process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const registry = options.registry ?? COMMAND_REGISTRY;
  const stdout = options.output?.stdout ?? process.stdout;
  const stderr = options.output?.stderr ?? process.stderr;
  const [first, ...rest] = argv;
  if (first === undefined) {
    stderr.write(usage(registry));
    return 2;
  }
  const helpOnly = HELP_FLAGS.includes(first);
  const name = helpOnly ? rest[0] : first;
  if (name === undefined) {
    stdout.write(usage(registry));
    return 0;
  }
  const entry = registry.find((candidate) => candidate.name === name);
  if (entry === undefined) {
    stderr.write(`decisions: unknown command "${name}"\n\n${usage(registry)}`);
    return 2;
  }
  try {
    const command = await loadCommand(entry);
    return await command.run(helpOnly ? ["--help"] : rest);
  } catch (error) {
    if (error instanceof UsageError) {
      stderr.write(
        `decisions ${name}: ${error.message}\n${error.usage === undefined ? "" : `\n${error.usage}`}`,
      );
      return 2;
    }
    if (error instanceof CommandUnavailableError) {
      stderr.write(`decisions: ${error.message}\n`);
      return 2;
    }
    // An error's message may quote an id or a reason read from a table or a queue.
    stderr.write(inertLines(`decisions ${name}: ${describeError(error)}\n`));
    return 1;
  }
}

/** The usage text: the commands this installation has, from the registry alone (no module loaded). */
function usage(registry: readonly CommandEntry[]): string {
  const lines = [
    "usage: decisions <command> [options]   (decisions help <command> for its options)",
    "",
    "commands:",
  ];
  const width = Math.max(...registry.map((entry) => entry.name.length));
  const absent: string[] = [];
  for (const entry of registry) {
    const missing = missingParts(entry);
    if (missing.length === 0) lines.push(`  ${entry.name.padEnd(width)}  ${entry.summary}`);
    else absent.push(`${entry.name} (needs ${missing.join(", ")})`);
  }
  if (absent.length > 0) lines.push("", `not installed here: ${absent.join("; ")}`);
  return `${lines.join("\n")}\n`;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = [error.message];
  for (let cause = error.cause; cause instanceof Error; cause = cause.cause) {
    lines.push(`  caused by: ${cause.message}`);
  }
  return lines.join("\n");
}
