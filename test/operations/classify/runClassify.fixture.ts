/** Runs `decisions <args>` from the sources in a child process (the classify kill-and-resume test spawns it). */
import { runCli } from "../../../cli/main.js";

process.exitCode = await runCli(process.argv.slice(2));
