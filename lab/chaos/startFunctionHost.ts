import { fileURLToPath } from "node:url";
import { ManagedProcess } from "../../local/services/ManagedProcess.js";
import type { FunctionHostConfig, FunctionHostEvent } from "./FunctionHostConfig.js";

/** A decide function log line: a record given back to SQS, with its message id and the reason. */
export interface RecordFailure {
  messageId: string;
  /** The error's class name and message. */
  reason: string;
  /** The error's class name (`DeadlineExceededError`, `RetriesExhaustedError`, …). */
  error: string;
}

/** A decide function log line: a record re-queued for capacity as a delayed copy (not ended). */
export interface RecordRequeue {
  messageId: string;
  /** The copy's message id. */
  requeuedAs: string;
}

/** Options of {@link startFunctionHost}. */
export interface StartFunctionHostOptions {
  config: FunctionHostConfig;
  /** Every event the host prints. */
  onEvent: (event: FunctionHostEvent) => void;
  /** Every record the decide function logged as failed (it goes back to SQS). */
  onRecordFailure: (failure: RecordFailure) => void;
  /** Every record the decide function re-queued for capacity (deleted, its item in the copy). */
  onRequeue?: (requeue: RecordRequeue) => void;
  /** How long building the handler may take. Default 120000 ms. */
  readyTimeoutMs?: number;
}

/** A running function host process. */
export interface FunctionHost {
  pid: number | undefined;
  /** SIGTERM: the poller drains (in-flight batches finish and are deleted), then the process exits. */
  stop(): Promise<void>;
  /** SIGKILL: a crash mid-batch; what was written stays, the rest is redelivered after the visibility timeout. */
  kill(): Promise<void>;
  /** The last few KiB of what it printed. */
  output(): string;
}

/**
 * Starts the function host (the stand-in for Lambda: the event source poller with the real decide
 * handler) as a child process, so a chaos run can kill it mid-batch, and waits until it polls.
 *
 * @throws PartStartError when it exits or stays silent before it is ready.
 */
export async function startFunctionHost(options: StartFunctionHostOptions): Promise<FunctionHost> {
  const child = await ManagedProcess.start({
    part: "the function host",
    command: process.execPath,
    args: [...entryArgs(), JSON.stringify(options.config)],
    readyLine: /^\{"chaos":"ready"\}$/,
    readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
    onLine: (line) => readLine(line, options),
  });
  return {
    pid: child.pid,
    stop: () => child.stop(),
    kill: () => child.kill(),
    output: () => child.output(),
  };
}

function readLine(line: string, options: StartFunctionHostOptions): void {
  if (!line.startsWith("{")) return;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    // A line cut by a SIGKILL is not an event.
    if (error instanceof SyntaxError) return;
    throw error;
  }
  if (typeof value.chaos === "string") {
    options.onEvent(value as unknown as FunctionHostEvent);
    return;
  }
  // The decide function's Powertools line for a record re-queued for capacity.
  if (typeof value.messageId === "string" && typeof value.requeuedAs === "string") {
    options.onRequeue?.({ messageId: value.messageId, requeuedAs: value.requeuedAs });
    return;
  }
  // The decide function's Powertools line for a record given back to SQS (DecideTelemetry.recordFailed).
  if (typeof value.messageId === "string" && typeof value.reason === "string") {
    const error = typeof value.error === "string" ? value.error : "Error";
    options.onRecordFailure({ messageId: value.messageId, reason: `${error}: ${value.reason}`, error });
  }
}

/** `node <entry>`: the compiled entry from dist/, or the TypeScript one through tsx from the sources. */
function entryArgs(): string[] {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(`./functionHostMain.${fromSources ? "ts" : "js"}`, import.meta.url));
  return fromSources ? ["--import", import.meta.resolve("tsx"), entry] : [entry];
}
