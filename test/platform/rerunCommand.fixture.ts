// The entry of bin/decisions.js with a stand-in command, for the signal tests of the Node.js 22 re-run
// (runOnSupportedNode): started on an older Node.js it runs itself again on node_modules' Node.js 22.
// The command prints `ready {pid, ppid, node}`, then one line per signal it gets: `signal SIGINT` for
// each SIGINT (all are counted; none ends it), and on SIGTERM `counted {…}` before it exits with code
// 3; SIGHUP ends it by that signal.
import { fileURLToPath } from "node:url";
import { runOnSupportedNode, stopWithWaitingParent } from "../../bin/nodeRequirement.js";

if (!runOnSupportedNode(new URL("../../", import.meta.url), fileURLToPath(import.meta.url))) {
  stopWithWaitingParent();
  const counted: Record<string, number> = {};
  const keepAlive = setInterval(() => {}, 1 << 30);
  const count = (signal: NodeJS.Signals): void => {
    counted[signal] = (counted[signal] ?? 0) + 1;
    process.stdout.write(`signal ${signal}\n`);
  };
  process.on("SIGINT", count);
  process.on("SIGCONT", count);
  process.once("SIGTERM", () => {
    process.stdout.write(`counted ${JSON.stringify(counted)}\n`);
    clearInterval(keepAlive);
    process.exitCode = 3;
  });
  process.once("SIGHUP", () => process.kill(process.pid, "SIGHUP"));
  process.stdout.write(
    `ready ${JSON.stringify({ pid: process.pid, ppid: process.ppid, node: process.versions.node })}\n`,
  );
}
