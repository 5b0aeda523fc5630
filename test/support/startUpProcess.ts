/**
 * `decisions up` started from the sources as a user starts it, for process-level tests: resolves
 * once it printed its one JSON line (or fails with its stderr when it exited before that).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/** A running `decisions up`. */
export interface UpProcess {
  child: ChildProcess;
  /** The JSON line it printed once ready: the stack's endpoints and names. */
  info: Record<string, string>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
}

const REPO_ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Starts `decisions up <args>` (default `--threads 2`) and waits until it is ready.
 * @param env variables added to this process's environment for the child. Default none.
 */
export async function startUpProcess(
  args: readonly string[] = ["--threads", "2"],
  env: Readonly<Record<string, string>> = {},
): Promise<UpProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/adapter/server/runCli.fixture.ts", "up", ...args],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [first] = (await Promise.race([once(lines, "line"), once(child, "exit")])) as [unknown];
  if (typeof first !== "string") throw new Error(`decisions up exited before it was ready:\n${stderr}`);
  return { child, info: JSON.parse(first), stderr: () => stderr };
}
