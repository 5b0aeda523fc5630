/** Limits of the queue operations, from the SQS API. */

export { SQS_BATCH_ENTRIES, SQS_MAX_PAYLOAD_BYTES } from "../../core/queue/sqsLimits.js";

/** Messages per ReceiveMessage call (SQS's limit). */
export const SQS_RECEIVE_MAX = 10;

/** Characters of a message body shown by `decisions dlq list`. */
export const BODY_PREVIEW_CHARS = 160;
