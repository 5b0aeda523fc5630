/**
 * The command as the README tells a person with a checkout to run it, `node bin/decisions.js …`:
 * it answers `help` from the checkout without installing anything, and a run killed halfway leaves
 * nothing behind that a later run trips over.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, it } from "node:test";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The PATH a shell in the checkout has: the machine's, without npm's node_modules/.bin. */
const SHELL_PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((folder) => !folder.includes("node_modules"))
  .join(delimiter);

/** The `node` that PATH finds, or this test's own Node.js where the machine has none. */
function shellNode(): string {
  const found = spawnSync("node", ["-p", "process.execPath"], {
    encoding: "utf8",
    env: { ...process.env, PATH: SHELL_PATH },
  });
  return found.status === 0 ? found.stdout.trim() : process.execPath;
}

/** Runs the documented command with `args` from the checkout, as a shell there would. */
function decisions(node: string, ...args: string[]) {
  return spawnSync(node, ["bin/decisions.js", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, PATH: SHELL_PATH },
  });
}

describe("node bin/decisions.js from the checkout", () => {
  it("is the command the README documents", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    assert.match(readme, /^node bin\/decisions\.js help\b/m);
  });

  for (const [which, node] of [
    ["this Node.js", process.execPath],
    ["the node on the machine's PATH", shellNode()],
  ] as const) {
    it(`answers help on ${which}`, () => {
      const run = decisions(node, "help");
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^usage: decisions <command>/);
      assert.match(run.stdout, /^ {2}classify /m);
    });
  }

  it("answers help again after a first run was killed halfway", async () => {
    // A run killed with SIGKILL once it has started answering (bounded by its progress, not a sleep).
    const first = spawn(shellNode(), ["bin/decisions.js", "help", "serve"], {
      cwd: ROOT,
      env: { ...process.env, PATH: SHELL_PATH },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const ended = new Promise<NodeJS.Signals | number | null>((resolve) => {
      first.on("exit", (code, signal) => resolve(signal ?? code));
    });
    await new Promise<void>((resolve) => {
      first.stdout.once("data", () => resolve());
      first.once("exit", () => resolve());
    });
    first.kill("SIGKILL");
    await ended;

    const again = decisions(shellNode(), "help");

    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^usage: decisions <command>/);
  });
});
