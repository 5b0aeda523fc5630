import { fileURLToPath } from "node:url";

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
