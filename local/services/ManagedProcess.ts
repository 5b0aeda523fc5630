import { type ChildProcess, spawn } from "node:child_process";
import { JavaNotFoundError, PartStartError } from "../errors.js";

/** Options of {@link ManagedProcess.start}. */
export interface ManagedProcessOptions {
  /** The part this process is, for error messages ("DynamoDB Local", "the adapter"). */
  part: string;
  command: string;
  args: string[];
  /** The child's whole environment. Default: the parent's (the child inherits it). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** A line on stdout or stderr that says the process is ready; its match is returned. */
  readyLine: RegExp;
  /** How long to wait for the ready line. Default 60000 ms. */
  readyTimeoutMs?: number;
  /**
   * Maps a failed start (exit before ready) to a more precise error, from what it printed and how
   * it ended: its exit code, or the signal that killed it (null when it exited by itself).
   */
  classifyFailure?: (
    output: string,
    exitCode: number | null,
    signal: NodeJS.Signals | null,
  ) => Error | undefined;
  /** Called with every complete line it prints (stdout and stderr), for the whole of its life. */
  onLine?: (line: string) => void;
  /** When spawning fails with ENOENT, throw {@link JavaNotFoundError} rather than a generic error. */
  commandIsJava?: boolean;
}

/** How long {@link ManagedProcess.stop} waits after SIGTERM before it sends SIGKILL. */
const STOP_GRACE_MS = 10_000;
/** Bytes of output kept for error messages. */
const OUTPUT_TAIL_BYTES = 8_192;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * A child process of the local stack with a ready line, a bounded tail of its output for error
 * messages, and an explicit lifetime: {@link stop} (SIGTERM, then SIGKILL after a grace period) or
 * {@link kill} (SIGKILL). Every running one is SIGKILLed when this Node process exits, so a crashed
 * test leaves no JVM behind.
 */
export class ManagedProcess {
  readonly child: ChildProcess;
  /** The match of the ready line. */
  readonly ready: RegExpMatchArray;
  /** Resolves with the exit code (or null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  readonly #tail: OutputTail;

  private constructor(
    child: ChildProcess,
    ready: RegExpMatchArray,
    exited: Promise<number | null>,
    tail: OutputTail,
  ) {
    this.child = child;
    this.ready = ready;
    this.exited = exited;
    this.#tail = tail;
  }

  /**
   * Spawns the process and waits for its ready line.
   * @throws {JavaNotFoundError} when `commandIsJava` and the command does not exist.
   * @throws {PartStartError} when it exits or stays silent past the timeout (it is killed then), or
   *   the error `classifyFailure` returns for what it printed.
   */
  static async start(options: ManagedProcessOptions): Promise<ManagedProcess> {
    const tail = new OutputTail(OUTPUT_TAIL_BYTES);
    const child = spawn(options.command, options.args, {
      // Absent, spawn gives the child this process's environment: nothing here reads it.
      env: options.env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => {
      child.once("close", (code) => resolve(code));
      child.once("error", () => resolve(null));
    });
    let spawnError: Error | undefined;
    child.once("error", (error) => {
      spawnError = error;
    });
    track(child);
    void exited.then(() => running.delete(child));
    const timeoutMs = options.readyTimeoutMs ?? 60_000;
    let timedOut = false;
    const ready = await new Promise<RegExpMatchArray | undefined>((resolve) => {
      const timer = setTimeout(() => {
        timedOut = true;
        resolve(undefined);
      }, timeoutMs);
      let pending = "";
      const onData = (chunk: Buffer): void => {
        const text = chunk.toString("utf8");
        tail.push(text);
        pending += text;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          options.onLine?.(line);
          const match = options.readyLine.exec(line);
          if (match !== null) {
            clearTimeout(timer);
            resolve(match);
          }
        }
      };
      // Output is drained for the whole life of the process: a full pipe would block the child.
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      void exited.then(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    if (ready !== undefined) return new ManagedProcess(child, ready, exited, tail);

    child.kill("SIGKILL");
    const exitCode = await exited;
    if (
      (spawnError as NodeJS.ErrnoException | undefined)?.code === "ENOENT" &&
      options.commandIsJava === true
    ) {
      throw new JavaNotFoundError(options.part, options.command, { cause: spawnError });
    }
    if (spawnError !== undefined) {
      throw new PartStartError(options.part, `could not run ${options.command}`, "", { cause: spawnError });
    }
    const output = tail.text();
    // A crash (SIGSEGV, SIGILL) is told as such: "exit code null" says nothing.
    const signal = timedOut ? null : child.signalCode;
    const classified = options.classifyFailure?.(output, exitCode, signal);
    if (classified !== undefined) throw classified;
    const what = timedOut
      ? `did not become ready within ${timeoutMs} ms`
      : signal !== null
        ? `was killed by ${signal} before it was ready`
        : `exited before it was ready (exit code ${exitCode})`;
    throw new PartStartError(options.part, what, output);
  }

  /** The process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last few KiB of what it printed. */
  output(): string {
    return this.#tail.text();
  }

  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). Resolves at once when already stopped. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** SIGKILL (a crash, for fault-injection tests), then waits for the exit. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGKILL");
    await this.exited;
  }
}

function track(child: ChildProcess): void {
  running.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const each of running) each.kill("SIGKILL");
  });
}

/** The last `limit` characters of a stream of text. */
class OutputTail {
  #text = "";
  constructor(private readonly limit: number) {}
  push(chunk: string): void {
    this.#text = (this.#text + chunk).slice(-this.limit);
  }
  text(): string {
    return this.#text;
  }
}
