import type { IncomingMessage, ServerResponse } from "node:http";
import { DISCARD_TIMEOUT_MS, MAX_DISCARD_BYTES } from "../constants.js";
import { declaredLength, discardBody } from "../readJsonBody.js";

/** How {@link sendJson} writes an answer. */
export interface SendJsonOptions {
  /** Leave out the fields that tell how much of a prompt was cached (`cached_tokens`, `evaluated_tokens`). */
  hideCacheDetails: boolean;
  /** The server is stopping: every answer closes its connection. */
  stopping: boolean;
}

/**
 * Answers `request` with `body` as JSON, unless an answer was already sent or the connection is gone.
 * The connection is closed after the answer when the server is stopping or when an unread body is
 * longer than is worth reading; else an unread body is read and dropped so the connection stays
 * usable for the next request. A `HEAD` request gets the headers only.
 */
export function sendJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>>,
  options: SendJsonOptions,
): void {
  if (response.headersSent || response.destroyed) return;
  const payload = options.hideCacheDetails ? JSON.stringify(body, withoutCacheDetails) : JSON.stringify(body);
  const length = declaredLength(request);
  const close =
    options.stopping || (!request.complete && length !== undefined && !(length <= MAX_DISCARD_BYTES));
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    ...headers,
    ...(close ? { Connection: "close" } : {}),
  });
  response.end(request.method === "HEAD" ? undefined : payload);
  // An unread body is read and dropped so the connection stays usable for the next request.
  if (!request.complete) discardBody(request, MAX_DISCARD_BYTES, DISCARD_TIMEOUT_MS);
}

/**
 * Fields that tell a caller how much of its prompt was already cached, which says whether another
 * caller sent the same state recently (`evaluated_tokens` is the input less the cached tokens).
 */
const CACHE_DETAILS = new Set(["cached_tokens", "evaluated_tokens"]);

function withoutCacheDetails(key: string, value: unknown): unknown {
  return CACHE_DETAILS.has(key) ? undefined : value;
}
