/**
 * The function host process of a chaos run: `node functionHostMain.js '<FunctionHostConfig JSON>'`.
 * Runs each lane's decide handler under its event source poller until SIGTERM (drains, exits 0); the chaos
 * run SIGKILLs it mid-batch to see what a crashed Lambda leaves behind.
 */
import { FunctionHostConfigSchema } from "./FunctionHostConfig.js";
import { runFunctionHost } from "./runFunctionHost.js";

const config = FunctionHostConfigSchema.parse(JSON.parse(process.argv[2] ?? "{}"));
const host = await runFunctionHost(config, (event) => process.stdout.write(`${JSON.stringify(event)}\n`));
process.once("SIGTERM", () => {
  void host.stop().then(() => process.exit(0));
});
