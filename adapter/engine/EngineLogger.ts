/** Severity of an engine log record. */
export type EngineLogLevel = "debug" | "info" | "warn" | "error";

/**
 * Where the engine reports what callers should see but never fail on: llama.cpp's own log lines
 * (`llama_cpp` events), cache failures (`state_file_save_failed`, `state_file_load_failed`), and
 * once per load the cache's bound and how it was chosen (`cache_bound`, info).
 * The server's JSON logger has this shape, so it is passed in as is.
 */
export interface EngineLogger {
  log(level: EngineLogLevel, event: string, fields?: Record<string, unknown>): void;
}
