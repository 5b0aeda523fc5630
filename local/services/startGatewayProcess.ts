import { PortInUseError } from "../errors.js";
import { type ChildServer, childServer, entryArgs, parseLogLine } from "./childEntry.js";
import { ManagedProcess } from "./ManagedProcess.js";

const PART = "the SageMaker gateway";
const HOST = "127.0.0.1";

/** Options of {@link startGatewayProcess}. */
export interface StartGatewayProcessOptions {
  /** Endpoint name → the adapter's base URL (`http://127.0.0.1:8080`). */
  endpoints: Record<string, string>;
  /** Port on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /** The child's environment. Default: this process's (the child inherits it). */
  env?: NodeJS.ProcessEnv;
  /** How long it may take to listen. Default 30000 ms. */
  readyTimeoutMs?: number;
}

/** The gateway's calls to its containers that failed before an answer, since it started. */
export interface UpstreamFailures {
  count: number;
  /** The error (`fetch failed: other side closed (UND_ERR_SOCKET)`) → how many times. */
  byError: Record<string, number>;
}

/**
 * A running gateway process: `url` serves `POST /endpoints/{name}/invocations`; `stop()` closes its
 * connections and exits.
 */
export interface GatewayProcess extends ChildServer {
  /** The failures it has logged so far (`upstream_failed` lines); a new object on every call. */
  upstreamFailures(): UpstreamFailures;
}

/**
 * Starts the local SageMaker gateway (see `startSageMakerGateway`) as a child process bound to
 * 127.0.0.1 and waits until it listens. A process of its own, so a load run can measure its memory
 * and descriptors apart from the load generator's, and read the cause of each 503 or timeout it
 * answered from its log.
 *
 * @throws {PortInUseError} when the port is taken.
 * @throws {PartStartError} when it fails to start (its log is in the message).
 * @example
 * await using gateway = await startGatewayProcess({ endpoints: { decisions: adapter.url } });
 */
export async function startGatewayProcess(options: StartGatewayProcessOptions): Promise<GatewayProcess> {
  const args = Object.entries(options.endpoints).flatMap(([name, url]) => ["--endpoint", `${name}=${url}`]);
  args.push("--port", String(options.port ?? 0));
  let port: number | undefined;
  const failures: UpstreamFailures = { count: 0, byError: {} };
  const child = await ManagedProcess.start({
    part: PART,
    command: process.execPath,
    args: [...entryArgs("gatewayProcessMain"), ...args],
    env: options.env,
    readyLine: /"event":"ready"/,
    readyTimeoutMs: options.readyTimeoutMs ?? 30_000,
    onLine: (line) => {
      const event = parseLogLine(line);
      if (event?.event === "ready" && typeof event.port === "number") port = event.port;
      if (event?.event === "upstream_failed") {
        const error = String(event.error);
        failures.count += 1;
        failures.byError[error] = (failures.byError[error] ?? 0) + 1;
      }
    },
    classifyFailure: (output) =>
      /EADDRINUSE/.test(output) ? new PortInUseError(PART, HOST, options.port ?? 0) : undefined,
  });
  return {
    ...(await childServer(PART, child, port)),
    upstreamFailures: () => ({ count: failures.count, byError: { ...failures.byError } }),
  };
}
