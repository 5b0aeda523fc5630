/**
 * The adapter as a process of its own for the local stack: `decisions serve` with the arguments
 * given, exactly what the SageMaker image runs, so the stack (or a chaos test) can kill it.
 */
import { runCli } from "../cli/main.js";

process.exitCode = await runCli(["serve", ...process.argv.slice(2)]);
