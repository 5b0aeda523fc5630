import type { IncomingMessage } from "node:http";
import type { BodyReadLease } from "../BodyReadBudget.js";
import { MAX_JSON_DEPTH } from "../constants.js";
import { BodyTimeoutError, BodyTooSlowError, ServiceUnavailableError } from "../errors.js";
import { readBodyText } from "../readJsonBody.js";
import { type BodyPace, watchBodyPace } from "../watchBodyPace.js";

/** Bounds of {@link readBodyInTime}. */
export interface ReadBodyInTimeOptions {
  /** Longest body, in bytes (413 beyond). */
  maxBytes: number;
  /** Time the whole body may take, in seconds (408 beyond). */
  timeoutSeconds: number;
  /** The slowest the body may arrive (408 when slower). */
  pace: BodyPace;
  /** Each chunk is charged to it; a chunk it has no room for ends the read with 503. */
  lease: BodyReadLease;
  /** The request's own signal (its deadline, its client's disconnection). */
  signal: AbortSignal;
  /** `Retry-After` of the 503 when the lease has no room. */
  retryAfterSeconds: number;
  /** Called before the 503 is thrown when the lease has no room (a refusal, not a failure). */
  onRefused: () => void;
}

/**
 * Reads a request's body as text within the body deadline and pace, each chunk charged to the
 * lease, so a slow or idle sender holds the bytes it sent, never an admission.
 * @throws BodyTimeoutError, BodyTooSlowError, ServiceUnavailableError (no room in the lease), and
 *   what `readBodyText` throws (too large, too deep, the signal's reason).
 */
export async function readBodyInTime(
  request: IncomingMessage,
  options: ReadBodyInTimeOptions,
): Promise<string> {
  const seconds = options.timeoutSeconds;
  const reading = new AbortController();
  const timer = setTimeout(() => reading.abort(new BodyTimeoutError(seconds)), seconds * 1000);
  const minRate = options.pace.minBytesPerSecond;
  const pace = watchBodyPace(options.pace, () => reading.abort(new BodyTooSlowError(minRate)));
  try {
    return await readBodyText(request, {
      maxBytes: options.maxBytes,
      maxDepth: MAX_JSON_DEPTH,
      signal: AbortSignal.any([options.signal, reading.signal]),
      onChunk: (bytes) => {
        if (!options.lease.take(bytes)) {
          options.onRefused();
          throw new ServiceUnavailableError(
            "the server holds as many request bodies as it may; retry the request",
            options.retryAfterSeconds,
          );
        }
        pace.received(bytes);
      },
    });
  } finally {
    clearTimeout(timer);
    pace.stop();
  }
}
