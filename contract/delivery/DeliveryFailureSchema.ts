import { z } from "zod";
import { DeliveryPayloadSchema } from "./DeliveryPayloadSchema.js";

/** Characters of a receiver's answer kept in a failure. */
export const ANSWER_EXCERPT_CHARS = 200;

/** What the receiver answered to the last attempt, or why no answer came. */
export const LastAnswerSchema = z.union([
  z.object({
    /** The HTTP status it answered. */
    status: z.number().int(),
    /** The first {@link ANSWER_EXCERPT_CHARS} characters of its body. */
    body: z.string(),
  }),
  z.object({
    /** No answer: the connection failed or timed out (the error's code and message). */
    error: z.string(),
  }),
]);

/**
 * A delivery that was given up on, as it sits in the delivery DLQ (one message each): where it was
 * going, what was sent, how often, what came back and why it stopped. `decisions deliveries list`
 * shows these, `decisions deliveries redrive` sends the payload again, freshly signed.
 */
export const DeliveryFailureSchema = z.object({
  /** `<policy>/<target name>`. */
  target: z.string(),
  /** The URL, or the bus name or ARN. */
  destination: z.string(),
  /** The payload's `delivery_id` (the `webhook-id`). */
  delivery_id: z.string(),
  /** Attempts made in all. */
  attempts: z.number().int().nonnegative(),
  last_answer: LastAnswerSchema.optional(),
  /** Why it stopped: the answer was a 4xx other than 408 and 429, or the schedule's attempts ran out. */
  reason: z.string(),
  /** When it was given up on (ISO-8601 UTC). */
  failed_at: z.string(),
  payload: DeliveryPayloadSchema,
});

/** A delivery given up on. */
export type DeliveryFailure = z.infer<typeof DeliveryFailureSchema>;
/** The receiver's last answer. */
export type LastAnswer = z.infer<typeof LastAnswerSchema>;
