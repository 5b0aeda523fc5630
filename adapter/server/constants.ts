/** Fixed limits of the HTTP adapter that are not configuration. */

/** Deepest nesting of arrays and objects accepted in a request body (the body itself is depth 1). */
export const MAX_JSON_DEPTH = 64;

export { MAX_CHAT_MESSAGES, SYSTEM_ONE_MAX_LABELS } from "../../contract/wire/constants.js";

/** Most bytes of an unwanted request body read and discarded to keep its connection usable. */
export const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

/** Most time spent discarding an unwanted request body before its connection is closed. */
export const DISCARD_TIMEOUT_MS = 10_000;

/** Paths served, with the methods each accepts. */
export const ROUTES = {
  ping: "/ping",
  invocations: "/invocations",
  systemOne: "/v1/systemone",
  chatCompletions: "/v1/chat/completions",
} as const;

/**
 * The slowest a request body may arrive: after 2 s, at least 1 KiB/s averaged over the first 2 s
 * and then over each second; a slower body is cut with 408 (well before `bodyTimeoutSeconds`).
 */
export const BODY_PACE = { graceMs: 2_000, windowMs: 1_000, minBytesPerSecond: 1_024 } as const;

/** Most time a client may take to send a request's headers (Node's `server.headersTimeout`). */
export const HEADERS_TIMEOUT_MS = 10_000;

/** How often Node checks the headers and request deadlines of open connections. */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/** Most connections the server holds at once (Node's `server.maxConnections`). */
export const MAX_CONNECTIONS = 1_024;

/** Most connections the server holds at once from one remote address. */
export const MAX_CONNECTIONS_PER_ADDRESS = 256;
