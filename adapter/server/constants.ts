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
