import { fileURLToPath } from "node:url";
import { PartStartError } from "../errors.js";
import type { ManagedProcess } from "./ManagedProcess.js";

const HOST = "127.0.0.1";

/** What a child server started by this folder offers (the adapter, the gateway). */
export interface ChildServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  pid: number | undefined;
  exited: Promise<number | null>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL and wait. */
  kill(): Promise<void>;
  /** The last few KiB of its log. */
  output(): string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The handle of a child that reported ready, on the port it reported.
 * @throws {PartStartError} when it reported no port (the child is killed first).
 */
export async function childServer(
  part: string,
  child: ManagedProcess,
  port: number | undefined,
): Promise<ChildServer> {
  if (port === undefined) {
    await child.kill();
    throw new PartStartError(part, "reported ready without reporting its port", child.output());
  }
  return {
    url: `http://${HOST}:${port}`,
    port,
    pid: child.pid,
    exited: child.exited,
    stop: () => child.stop(),
    kill: () => child.kill(),
    output: () => child.output(),
    [Symbol.asyncDispose]: () => child.stop(),
  };
}

/**
 * `node <entry>` for a process main of this folder (`adapterProcessMain`, `gatewayProcessMain`):
 * the compiled entry from dist/, or the TypeScript one through tsx when running from the sources.
 */
export function entryArgs(main: string): string[] {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(`./${main}.${fromSources ? "ts" : "js"}`, import.meta.url));
  // tsx by its resolved URL, so the child finds it whatever its working directory.
  return fromSources ? ["--import", import.meta.resolve("tsx"), entry] : [entry];
}

/** The record of a JSON log line of a child; undefined for any other line (llama.cpp's own, a Node warning). */
export function parseLogLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
