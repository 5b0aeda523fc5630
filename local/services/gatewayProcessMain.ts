/**
 * The SageMaker gateway as a process of its own (see startGatewayProcess.ts): `--endpoint
 * name=url` (repeatable) and `--port`, bound to 127.0.0.1. Writes JSON lines: `ready` with its
 * port, and `upstream_failed` for every invocation whose call to the container failed before an
 * answer, with the error's message and its causes' (codes included). SIGTERM or SIGINT stops it.
 */
import { parseArgs } from "node:util";
import { createJsonLogger } from "../../adapter/server/logger.js";
import { startSageMakerGateway } from "./startSageMakerGateway.js";

const logger = createJsonLogger();

/** `message (CODE): cause's message (CODE): …`, the way the failure is counted and read. */
function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && parts.length < 5) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    const code = (current as NodeJS.ErrnoException).code;
    parts.push(
      code !== undefined && !current.message.includes(code)
        ? `${current.message} (${code})`
        : current.message,
    );
    current = current.cause;
  }
  return parts.join(": ");
}

function endpointsOf(specs: string[]): Record<string, string> {
  const endpoints: Record<string, string> = {};
  for (const spec of specs) {
    const at = spec.indexOf("=");
    if (at < 1) throw new Error(`--endpoint must be name=url, got "${spec}"`);
    endpoints[spec.slice(0, at)] = new URL(spec.slice(at + 1)).href;
  }
  return endpoints;
}

try {
  const { values } = parseArgs({
    options: { endpoint: { type: "string", multiple: true }, port: { type: "string" } },
  });
  const port = Number(values.port ?? "0");
  if (!Number.isInteger(port) || port < 0)
    throw new Error(`--port must be a port number, got "${values.port}"`);
  const gateway = await startSageMakerGateway({
    port,
    endpoints: endpointsOf(values.endpoint ?? []),
    onUpstreamFailure: (failure) =>
      logger.log("warn", "upstream_failed", {
        endpoint: failure.endpoint,
        timed_out: failure.timedOut,
        error: describeChain(failure.error),
      }),
  });
  const stop = (): void => {
    void gateway.stop().then(() => logger.log("info", "stopped"));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  logger.log("info", "ready", { port: gateway.port });
} catch (error) {
  logger.log("error", "startup_failed", { error });
  process.exitCode = 1;
}
