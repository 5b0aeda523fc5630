// Runs the `decisions` CLI from the TypeScript sources (no build needed), for process-level tests:
// `node --import tsx test/adapter/server/runCli.fixture.ts serve --model …`.
import { runCli } from "../../../cli/main.js";

process.exitCode = await runCli(process.argv.slice(2));
