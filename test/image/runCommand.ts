/** A program as a child process, for the image test (podman, debootstrap, chroot). */
import { spawn } from "node:child_process";
import { CommandFailedError } from "./errors.js";

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  /** Environment of the process; default: this one's. */
  env?: NodeJS.ProcessEnv;
  /** Streamed to its standard input, then closed; default: none. */
  input?: NodeJS.ReadableStream;
  /** Reject after this long (the child gets SIGKILL); default 10 minutes. */
  timeoutMs?: number;
}

/**
 * Runs `command args` and resolves with its standard output (trimmed) when it exits 0.
 *
 * @throws {CommandFailedError} when it exits otherwise, cannot start or runs past `timeoutMs`; the
 *   error keeps the arguments, the exit status and the ends of standard output and error
 * @example
 * const id = await runCommand("podman", ["run", "-d", image, "serve"], { env });
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunCommandOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      timeout: options.timeoutMs ?? 600_000,
      killSignal: "SIGKILL",
    });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    // Only the end of standard error is kept: a build writes megabytes of progress there.
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-8_000);
    });
    if (options.input !== undefined && child.stdin !== null) options.input.pipe(child.stdin);
    child.on("error", (cause) => reject(new CommandFailedError(command, args, null, stderr, { cause })));
    child.on("close", (status, signal) => {
      const out = Buffer.concat(stdout).toString("utf8");
      if (status === 0) return resolve(out.trim());
      // A build's compiler errors are on standard output: the end of both is kept.
      const output = `${out.slice(-6_000)}\n${stderr}${signal === null ? "" : `\n(killed: ${signal})`}`;
      reject(new CommandFailedError(command, args, status, output.trim()));
    });
  });
}
