/**
 * The `decisions` command: one entry point for every task of the decision engine. Each sub-command
 * lives in its own module and is loaded only when used, so `decisions models …` never loads llama.cpp.
 */

/** One sub-command: parses its own arguments and returns the process exit code. */
export interface CliCommand {
  /** One line shown by `decisions help`. */
  summary: string;
  run(args: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<CliCommand>> = {
  models: async () => (await import("./modelsCommand.js")).modelsCommand,
  bench: async () => (await import("./benchCommand.js")).benchCommand,
  start: async () => (await import("./startCommand.js")).startCommand,
  serve: async () => (await import("./serveCommand.js")).serveCommand,
};

/**
 * Runs the CLI with the given arguments (without `node` and the script path).
 * @returns the exit code: 0 on success, 1 on failure, 2 on a usage error.
 */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(await usage());
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (load === undefined) {
    process.stderr.write(`decisions: unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  const command = await load();
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`decisions ${name}: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`decisions ${name}: ${describeError(error)}\n`);
    return 1;
  }
}

/** Thrown by a sub-command for bad arguments: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\n  caused by: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

async function usage(): Promise<string> {
  const lines = ["usage: decisions <command> [options]", "", "commands:"];
  for (const [name, load] of Object.entries(commands)) {
    lines.push(`  ${name.padEnd(10)} ${(await load()).summary}`);
  }
  return `${lines.join("\n")}\n`;
}
