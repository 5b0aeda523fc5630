/** Error codes of a connection that failed or was cut, which a later attempt may not meet. */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENOTCONN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
]);

/** Error names the AWS SDK and Node give a request that timed out or was cut. */
const TRANSIENT_NAMES = new Set(["TimeoutError", "RequestTimeout", "RequestTimeoutException", "AbortError"]);

/**
 * Whether a foreign error (from an AWS SDK client or Node's networking) is a connection-level
 * failure worth another attempt: a reset, a refused connection (a local emulator restarting), a
 * timeout. The SDK does not mark `ECONNREFUSED` as `$retryable`, so this classifies by `code` and
 * `name`, also on the error's `cause` chain.
 */
export function isTransientNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && TRANSIENT_CODES.has(code)) return true;
    if (TRANSIENT_NAMES.has(current.name)) return true;
    current = current.cause;
  }
  return false;
}

/** The HTTP status of an AWS SDK service error (`$metadata.httpStatusCode`), when it has one. */
export function httpStatusOf(error: unknown): number | undefined {
  const metadata = (error as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata;
  return typeof metadata?.httpStatusCode === "number" ? metadata.httpStatusCode : undefined;
}
