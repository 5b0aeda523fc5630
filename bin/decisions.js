#!/usr/bin/env node
// Entry point of the `decisions` command. The TypeScript sources are compiled to dist/ by
// `npm ci` (the prepare script) and by `npm test`; this file only forwards to the compiled CLI.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runOnSupportedNode, stopWithWaitingParent } from "./nodeRequirement.js";

// First, before the CLI's modules load: on an old Node.js the command runs again on the project's
// own Node.js 22 when `npm ci` installed one, and otherwise gets an explanation, not a stack trace.
// Run again, the command stops should the process waiting for it die.
if (!runOnSupportedNode(new URL("../", import.meta.url), fileURLToPath(import.meta.url))) {
  stopWithWaitingParent();
  await runCommand();
}

/** Loads the compiled CLI and runs the command line on it. */
async function runCommand() {
  const main = new URL("../dist/cli/main.js", import.meta.url);
  if (!existsSync(fileURLToPath(main))) {
    process.stderr.write("decisions: the compiled sources are missing; run `npm run build` first.\n");
    process.exit(1);
  }
  // fauxqs (the local SQS/S3 emulator) stores its queues with node:sqlite, which Node 22 announces
  // as experimental on every run; that one notice is dropped, every other warning is still printed.
  const printWarnings = process.listeners("warning");
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name === "ExperimentalWarning" && /SQLite/.test(warning.message)) return;
    for (const listener of printWarnings) listener(warning);
  });
  // The local stack runs the functions in this process, and their Powertools metrics would print EMF
  // documents on stdout between a command's own lines; no CloudWatch reads them here. Off unless the
  // user set the variable (Powertools reads it when a function's Metrics is made).
  process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
  const { runCli } = await import(main.href);
  process.exitCode = await runCli(process.argv.slice(2));
}
