/** Types shared by the `decisions` command and its sub-commands. */

/** Where a command writes: results to `stdout`, progress and messages to `stderr`. */
export interface CliOutput {
  /** Default `process.stdout`. */
  stdout: { write(text: string): unknown };
  /** Default `process.stderr`. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/**
 * One sub-command: parses its own arguments (with `parseCommandArgs`) and returns the process exit
 * code. Its name and one-line summary live in the command registry, so `decisions help` loads no
 * command module.
 */
export interface CliCommand {
  /**
   * Runs the command with the arguments after its name.
   * @returns the exit code (0 success, 1 failure).
   * @throws UsageError for bad arguments (exit code 2).
   */
  run(args: string[]): Promise<number>;
}
