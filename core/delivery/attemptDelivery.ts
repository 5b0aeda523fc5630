import { ANSWER_EXCERPT_CHARS, type LastAnswer } from "../../contract/delivery/DeliveryFailureSchema.js";
import { retryAfterMsOf } from "../endpoint/retryAfterMsOf.js";
import { signDelivery } from "./signDelivery.js";

/** What one attempt came to. */
export type AttemptResult =
  /** A 2xx: delivered. */
  | { kind: "delivered"; status: number }
  /** A 5xx, 408, 429, a refused or cut connection, a timeout: worth another attempt. */
  | { kind: "retry"; answer: LastAnswer; retryAfterMs: number | undefined }
  /** Any other answer (4xx, 3xx): another attempt would get the same; it goes to the DLQ at once. */
  | { kind: "refused"; answer: LastAnswer };

/** One signed POST of a delivery. */
export interface DeliveryAttempt {
  url: string;
  /** The resolved `whsec_…` secret. */
  secret: string;
  /** The `webhook-id`. */
  deliveryId: string;
  /** The payload's JSON text: the same bytes on every attempt. */
  body: string;
  /** How long to wait for the answer (milliseconds). */
  timeoutMs: number;
  /** The clock the signature's timestamp is read from. Default `new Date()`. */
  now?: () => Date;
  /** The fetch to use. Default the global one. */
  fetch?: typeof fetch;
}

/** `user-agent` of every delivery. */
export const DELIVERY_USER_AGENT = "decisions-delivery/1";

/**
 * POSTs one attempt, freshly signed ({@link signDelivery}), and classifies the answer: 2xx
 * delivered; 5xx, 408 and 429 (with the receiver's `Retry-After`) and connection errors or a
 * timeout retried; any other status refused. Never throws for what the receiver does.
 */
export async function attemptDelivery(attempt: DeliveryAttempt): Promise<AttemptResult> {
  const now = attempt.now ?? (() => new Date());
  const post = attempt.fetch ?? fetch;
  const headers = {
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    ...signDelivery(attempt.secret, attempt.deliveryId, attempt.body, now()),
  };
  let response: Response;
  let text: string;
  try {
    response = await post(attempt.url, {
      method: "POST",
      headers,
      body: attempt.body,
      redirect: "manual",
      signal: AbortSignal.timeout(attempt.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    return { kind: "retry", answer: { error: describeFailure(error) }, retryAfterMs: undefined };
  }
  const answer = { status: response.status, body: text.slice(0, ANSWER_EXCERPT_CHARS) };
  if (response.status >= 200 && response.status < 300) return { kind: "delivered", status: response.status };
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    const retryAfter = response.headers.get("retry-after");
    const retryAfterMs =
      retryAfter === null
        ? undefined
        : retryAfterMsOf({ $response: { headers: { "retry-after": retryAfter } } });
    return { kind: "retry", answer, retryAfterMs };
  }
  return { kind: "refused", answer };
}

/** The code and message of a failed request (fetch hides the socket's code in `cause`). */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "TimeoutError: no answer in time";
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  return code === undefined
    ? `${error.name}: ${error.message}`
    : `${code}: ${String(cause?.message ?? error.message)}`;
}
