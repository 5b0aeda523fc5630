import { LOG_LEVELS } from "../../contract/index.js";

/** Severity of a log line; lines below the configured level are dropped. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Log levels in increasing severity (the list of the `SEMIF_LOG_LEVEL` setting, in the contract). */
export { LOG_LEVELS };

/** Fields of one structured log line. */
export type LogFields = Record<string, unknown>;

/**
 * Where the server writes its structured logs: one call, one JSON line. Passed in, so tests can
 * capture what was logged.
 */
export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
}

/** Options of {@link createJsonLogger}. */
export interface JsonLoggerOptions {
  /** Lowest level written. Default `info`. */
  level?: LogLevel;
  /** Where lines go. Default: `process.stdout`. */
  write?: (line: string) => void;
  /** Clock for the `time` field. Default: `() => new Date()`. */
  now?: () => Date;
}

/**
 * A logger writing one JSON object per line: `{"time", "level", "event", ...fields}`. Errors in
 * fields are written as `{name, message, stack, cause}`; values JSON cannot hold (bigint,
 * cycles) never make it throw.
 *
 * @example
 * createJsonLogger({ level: "info" }).log("info", "ready", { port: 8080 });
 * // {"time":"2025-01-01T00:00:00.000Z","level":"info","event":"ready","port":8080}
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level ?? "info");
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const now = options.now ?? (() => new Date());
  return {
    log(level, event, fields = {}) {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      const record = { time: now().toISOString(), level, event, ...fields };
      write(`${safeStringify(record)}\n`);
    },
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { log: () => {} };

/** Serialises for a log line: errors as plain objects, bigint as strings, cycles cut. */
export function safeStringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "bigint") return item.toString();
    if (item instanceof Error) return describeError(item);
    if (typeof item === "object" && item !== null) {
      if (seen.has(item)) return "[circular]";
      seen.add(item);
    }
    return item;
  });
}

function describeError(error: Error, depth = 0): Record<string, unknown> {
  const described: Record<string, unknown> = { name: error.name, message: error.message, stack: error.stack };
  if (error.cause !== undefined && depth < 5) {
    described.cause =
      error.cause instanceof Error ? describeError(error.cause, depth + 1) : String(error.cause);
  }
  return described;
}
