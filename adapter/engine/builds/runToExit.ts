import { spawn } from "node:child_process";

/** How a child run by {@link runToExit} ended. */
export interface ChildExit {
  /** Its exit code; null when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`SIGSEGV`, …); null when it exited by itself. */
  signal: NodeJS.Signals | null;
  /** True when it ran past the timeout and was killed for it (then `signal` is `SIGKILL`). */
  timedOut: boolean;
  /** Everything it wrote to stdout. */
  stdout: string;
  /** The last {@link OUTPUT_TAIL_CHARS} characters of stdout and stderr together, in order. */
  output: string;
}

/** Characters of output kept for error messages. */
const OUTPUT_TAIL_CHARS = 6000;

/** Options of {@link runToExit}. */
export interface RunToExitOptions {
  /** Killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** The child's whole environment. Default: this process's (the child inherits it). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs a command to its end and says how it ended, the signal included, rather than throwing:
 * the caller decides what a crash means. Its output is drained as it comes (a full pipe would
 * block it) and its tail kept.
 * @throws Error only when the command cannot be started at all (not found, not executable).
 */
export function runToExit(
  command: string,
  args: readonly string[],
  options: RunToExitOptions,
): Promise<ChildExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      // Absent, spawn gives the child this process's environment: nothing here reads it.
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let output = "";
    let timedOut = false;
    const keep = (text: string): void => {
      output = (output + text).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      stdout += text;
      keep(text);
    });
    child.stderr.on("data", (chunk: Buffer) => keep(chunk.toString("utf8")));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${command}: ${error.message}`, { cause: error }));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, output });
    });
  });
}
