/**
 * Signals reach a command that bin/decisions.js re-ran on node_modules' Node.js 22
 * (runOnSupportedNode): started on this machine's older Node.js, the waiting process passes
 * `kill -INT` on even when it runs in the background, Ctrl-C (the whole process group) reaches the
 * command once, Ctrl-Z stops both, and the waiting process ends as the command ended. The last test
 * runs `decisions up` itself (bin/decisions.js on the compiled sources) in the background and stops
 * it with `kill -INT`, as the issue reported.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import { after, describe, it } from "node:test";
import { MINIMUM_NODE_MAJOR, NODE_PACKAGES } from "../../bin/nodeRequirement.js";
import { processTree, statFields } from "../support/processTree.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const FIXTURE = join(ROOT, "test/platform/rerunCommand.fixture.ts");

/** A `node` on the PATH, outside node_modules, older than the minimum (machines like CI's have one). */
function olderNodeOnPath(): string | undefined {
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(folder, "node");
    if (folder.includes("node_modules") || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" });
    const major = Number.parseInt(version.stdout, 10);
    if (version.status === 0 && major < MINIMUM_NODE_MAJOR) return candidate;
  }
  return undefined;
}

const older = olderNodeOnPath();
const platformPackage = NODE_PACKAGES[`${process.platform}-${process.arch}`];
const packageInstalled =
  platformPackage !== undefined && existsSync(join(ROOT, "node_modules", platformPackage, "bin", "node"));
const skip =
  older === undefined
    ? "no Node.js older than 22 on the PATH outside node_modules"
    : packageInstalled
      ? false
      : "this platform's Node.js package is not installed";

/** A started process whose stdout is read line by line. */
interface Started {
  process: ChildProcess;
  /** Resolves with the first line (from the start) matching `pattern`; rejects when stdout ends first. */
  line(pattern: RegExp): Promise<string>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves once it exited, with its code and signal. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves once its stdout closed: every process that held it ended. */
  closed: Promise<unknown>;
}

function start(command: string, args: string[], options: { detached?: boolean } = {}): Started {
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], ...options });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void; reject: (e: Error) => void }> = [];
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  let ended = false;
  const closed = once(reader, "close");
  reader.on("close", () => {
    ended = true;
  });
  reader.on("line", (line) => {
    lines.push(line);
    for (const wait of [...waiting]) {
      if (!wait.pattern.test(line)) continue;
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(line);
    }
  });
  reader.on("close", () => {
    for (const wait of waiting.splice(0)) {
      wait.reject(
        new Error(`stdout ended before a line matched ${wait.pattern}:\n${lines.join("\n")}\n${stderr}`),
      );
    }
  });
  return {
    process: child,
    exited,
    closed,
    stderr: () => stderr,
    line: (pattern) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error(`stdout ended:\n${lines.join("\n")}\n${stderr}`));
      return new Promise((resolve, reject) => waiting.push({ pattern, resolve, reject }));
    },
  };
}

/** The processes the tests started, killed after them should a test fail half-way. */
const startedPids = new Set<number>();

/** Kills (SIGKILL) every process in {@link startedPids} still there, naming them on stderr. */
function killLeftovers(): void {
  const left = [...startedPids].filter((pid) => !gone(pid));
  if (left.length > 0)
    console.error(`still running, killed: ${left.map((pid) => `${pid} ${commandLine(pid)}`).join("; ")}`);
  for (const pid of left) process.kill(pid, "SIGKILL");
}

/** The ids in the fixture's `ready` line: the command's (on Node.js 22) and its waiting parent's. */
async function ready(started: Started): Promise<{ pid: number; ppid: number; node: string }> {
  const line = await started.line(/^ready /);
  const ids = JSON.parse(line.slice("ready ".length)) as { pid: number; ppid: number; node: string };
  startedPids.add(ids.pid).add(ids.ppid);
  return ids;
}

/** The `counted` line the fixture prints on SIGTERM: how many of each signal it got. */
async function counted(started: Started): Promise<Record<string, number>> {
  const line = await started.line(/^counted /);
  return JSON.parse(line.slice("counted ".length));
}

/** Whether a process with this id exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/**
 * Whether a process ended: it is not there, or it is a zombie ("Z": ended, not reaped yet, as when its
 * parent ended before it and the machine's process 1 reaps late).
 */
function gone(pid: number): boolean {
  if (!alive(pid)) return true;
  if (process.platform !== "linux") return false;
  try {
    return state(pid) === "Z";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true; // reaped meanwhile
    throw error;
  }
}

/** The state letter of a process in /proc/<pid>/stat ("T" when stopped). */
function state(pid: number): string {
  return statFields(readFileSync(`/proc/${pid}/stat`, "utf8"))[0] ?? "";
}

/** The command line of a process, from /proc/<pid>/cmdline. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "(ended)";
    throw error;
  }
}

/** Waits until `condition` holds, checking it every 10 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("a command re-run on Node.js 22 (integration)", { skip, timeout: 60_000 }, () => {
  after(killLeftovers);

  it("passes `kill -INT` on to the command when it runs in the background of a shell", async () => {
    // A non-interactive shell starts a background command with SIGINT ignored, as in `decisions up &`.
    const shell = start("sh", ["-c", `"$0" --import tsx "$1" & wait $!`, older ?? "", FIXTURE]);
    const { pid, ppid, node } = await ready(shell);
    assert.equal(Number.parseInt(node, 10), MINIMUM_NODE_MAJOR, "the command runs on the bundled Node.js");

    process.kill(ppid, "SIGINT");
    // Two signals sent at once may be handled in either order by the waiting process (seen on a busy
    // machine): SIGTERM goes only once the command has told that it got the SIGINT.
    await shell.line(/^signal SIGINT$/);
    process.kill(ppid, "SIGTERM");

    assert.deepEqual(await counted(shell), { SIGINT: 1 });
    assert.deepEqual(await shell.exited, [3, null], "the shell's `wait` got the command's exit code");
    assert.equal(alive(pid), false, "the command is gone");
  });

  it("gets Ctrl-C (SIGINT to the whole process group) once, not also from the waiting process", async () => {
    const waiting = start(older ?? "", ["--import", "tsx", FIXTURE], { detached: true });
    const { ppid } = await ready(waiting);
    assert.equal(ppid, waiting.process.pid);

    process.kill(-ppid, "SIGINT");
    await waiting.line(/^signal SIGINT$/);
    process.kill(ppid, "SIGTERM");

    assert.deepEqual(await counted(waiting), { SIGINT: 1 });
    assert.deepEqual(await waiting.exited, [3, null]);
  });

  it("ends by the signal that ended the command (SIGHUP)", async () => {
    const waiting = start(older ?? "", ["--import", "tsx", FIXTURE]);
    const { pid, ppid } = await ready(waiting);

    process.kill(ppid, "SIGHUP");

    assert.deepEqual(await waiting.exited, [null, "SIGHUP"]);
    assert.equal(alive(pid), false);
  });

  it("stops the command with Ctrl-Z (SIGTSTP) and continues it with SIGCONT", {
    skip: process.platform === "linux" ? false : "reads process states from /proc",
  }, async () => {
    const waiting = start(older ?? "", ["--import", "tsx", FIXTURE], { detached: true });
    const { pid, ppid } = await ready(waiting);

    process.kill(-ppid, "SIGTSTP");
    await until(() => state(pid) === "T" && state(ppid) === "T");
    process.kill(-ppid, "SIGCONT");
    await waiting.line(/^signal SIGCONT$/);
    process.kill(ppid, "SIGTERM");

    assert.deepEqual(await counted(waiting), { SIGCONT: 1 });
    assert.deepEqual(await waiting.exited, [3, null]);
  });

  it("stops the command (SIGTERM) when the waiting process is killed outright", async () => {
    const waiting = start(older ?? "", ["--import", "tsx", FIXTURE]);
    const { pid, ppid } = await ready(waiting);

    process.kill(ppid, "SIGKILL");

    // The command still writes to the same stdout: its `counted` line shows it stopped by SIGTERM.
    assert.deepEqual(await counted(waiting), {});
    await waiting.closed;
    assert.ok(pid > 0);
  });
});

describe("decisions up re-run on Node.js 22 (integration)", {
  skip:
    skip ||
    (process.platform === "linux" ? false : "reads the process tree from /proc") ||
    (existsSync(join(ROOT, "dist/cli/main.js")) ? false : "not built (npm run build)"),
  timeout: 300_000,
}, () => {
  after(killLeftovers);

  it("stops everything on `kill -INT` when it runs in the background of a shell", async () => {
    // `echo $!` names the waiting process; the shell then waits for it, as a script's `wait` would.
    const shell = start("sh", [
      "-c",
      `"$0" "$1" up --threads 2 & echo "waiting $!"; wait $!`,
      older ?? "",
      join(ROOT, "bin/decisions.js"),
    ]);
    const ppid = Number((await shell.line(/^waiting \d+$/)).slice("waiting ".length));
    const info = JSON.parse(await shell.line(/^\{/)) as Record<string, string>;
    assert.match(info.dynamodb_endpoint ?? "", /^http:\/\/127\.0\.0\.1:/);
    assert.match(shell.stderr(), /Ctrl-C \(SIGINT\) or SIGTERM stops everything/);
    // The waiting process, `up` on Node.js 22, DynamoDB Local's JVM, the adapter, …
    const started = processTree(ppid);
    for (const pid of started) startedPids.add(pid);
    assert.ok(
      started.length >= 4,
      `expected the waiting process, up and what it started: ${started.join(", ")}`,
    );

    process.kill(ppid, "SIGINT");

    assert.deepEqual(await shell.exited, [0, null], shell.stderr());
    assert.match(shell.stderr(), /SIGINT: stopping/);
    assert.match(shell.stderr(), /\bstopped\n/);
    // Some end only once `up` ended (esbuild's service sees its pipe close); a failure here is the
    // test's timeout, and the after hook names what was still running.
    await until(() => started.every(gone));
  });
  it("stops everything when `kill -INT` comes while the parts are still starting", async () => {
    // stderr joins stdout here, so that the test can wait for the first part's "ready" line.
    const shell = start("sh", [
      "-c",
      `"$0" "$1" up --threads 2 2>&1 & echo "waiting $!"; wait $!`,
      older ?? "",
      join(ROOT, "bin/decisions.js"),
    ]);
    const ppid = Number((await shell.line(/^waiting \d+$/)).slice("waiting ".length));
    // The tree grows while the parts start: every process seen in it until the end must be gone.
    const seen = new Set<number>();
    let exited = false;
    const watching = (async () => {
      while (!exited) {
        for (const pid of processTree(ppid)) {
          seen.add(pid);
          startedPids.add(pid);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await shell.line(/ ready on /);

    process.kill(ppid, "SIGINT");

    const status = await shell.exited;
    exited = true;
    await watching;
    // Before, a signal during the start met Node.js's default action: up ended by SIGINT (130 in
    // the shell) and left DynamoDB Local and the adapter running.
    assert.deepEqual(status, [0, null], shell.stderr());
    // "as soon as the parts that are starting are up" unless the start was over when it came.
    await shell.line(/^SIGINT: stopping/);
    await shell.line(/^stopped$/);
    assert.ok(seen.size >= 2, `expected the waiting process and up: ${[...seen].join(", ")}`);
    await until(() => [...seen].every(gone));
  });
});
