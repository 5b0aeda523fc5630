/**
 * Sending to the work queues: `sendMessageBatches` (SendMessageBatch of 10, bodies unchanged,
 * entries SQS failed on its side sent again), shared by the operators' commands and the front door.
 */

export {
  type OutgoingMessage,
  type SendMessageBatchesOptions,
  type SendResult,
  sendMessageBatches,
} from "./sendMessageBatches.js";
export { SQS_BATCH_ENTRIES, SQS_MAX_PAYLOAD_BYTES } from "./sqsLimits.js";
