/** The longest Retry-After honoured, in milliseconds (SQS's longest message delay, 15 minutes). */
const MAX_RETRY_AFTER_MS = 900_000;

/**
 * The Retry-After an SDK error's answer carried, in milliseconds: the HTTP `Retry-After` header of
 * the answer (seconds or an HTTP date), or, for a `ModelError`, a `retry_after_seconds` number in
 * the container's JSON body (`OriginalMessage`) — SageMaker does not pass the container's own
 * headers on. Undefined when neither is there or it does not read as a time; capped at 15 minutes.
 */
export function retryAfterMsOf(error: unknown, now: number = Date.now()): number | undefined {
  const fields = (error ?? {}) as {
    $response?: { headers?: Record<string, string | undefined> };
    OriginalMessage?: unknown;
  };
  const headers = fields.$response?.headers ?? {};
  const header = headers["retry-after"] ?? headers["Retry-After"];
  const fromHeader = header === undefined ? undefined : parseRetryAfter(header, now);
  if (fromHeader !== undefined) return Math.min(MAX_RETRY_AFTER_MS, fromHeader);
  if (typeof fields.OriginalMessage !== "string") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(fields.OriginalMessage);
  } catch {
    // A container body that is not JSON names no Retry-After.
    return undefined;
  }
  const seconds = (body as { retry_after_seconds?: unknown } | null)?.retry_after_seconds;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0
    ? Math.min(MAX_RETRY_AFTER_MS, Math.round(seconds * 1000))
    : undefined;
}

/** RFC 9110 §10.2.3: delay-seconds or an HTTP date. */
function parseRetryAfter(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
