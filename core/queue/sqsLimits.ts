/** Limits of the SQS API that the queue senders pack their calls by. */

/** Entries per SendMessageBatch / DeleteMessageBatch / ChangeMessageVisibilityBatch call (SQS's limit). */
export const SQS_BATCH_ENTRIES = 10;

/**
 * Largest message body, and largest SendMessageBatch payload, in UTF-8 bytes: SQS's limit (1 MiB
 * since August 2025; fauxqs' default). A queue may be configured lower (`MaximumMessageSize`):
 * SQS then refuses the entry and it is reported.
 */
export const SQS_MAX_PAYLOAD_BYTES = 1024 * 1024;
