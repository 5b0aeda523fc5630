/**
 * Queue operations of the decision owners' CLI: send work items and events to a work queue
 * (`decisions submit`), and list and move back the messages of its dead-letter queue
 * (`decisions dlq`). Bodies travel exactly as written.
 */

export {
  type OutgoingMessage,
  type SendMessageBatchesOptions,
  type SendResult,
  sendMessageBatches,
} from "../../core/queue/index.js";
export {
  type AttachedOutcomes,
  attachDecidedOutcomes,
  decidedOutcomeOf,
  type JobEndLookup,
  type OutcomeLookup,
} from "./attachDecidedOutcomes.js";
export {
  type AttachedFailures,
  attachFailureRecords,
  type FailureRecordLookup,
} from "./attachFailureRecords.js";
export { BODY_PREVIEW_CHARS, SQS_BATCH_ENTRIES, SQS_MAX_PAYLOAD_BYTES } from "./constants.js";
export { createSqsClient, regionOfQueueUrl } from "./createSqsClient.js";
export type { DeadLetterFailure } from "./DeadLetterFailure.js";
export type { DeadLetterOutcome } from "./DeadLetterOutcome.js";
export { type BodySummary, describeMessageBody } from "./describeMessageBody.js";
export { SourceQueueUnknownError, UpInfoError } from "./errors.js";
export { findSourceQueues } from "./findSourceQueues.js";
export { laneOfMessage } from "./laneOfMessage.js";
export { LANE_TAG, laneOfQueue, type QueueLane } from "./laneOfQueue.js";
export { type DeadLetter, type ListDeadLettersOptions, listDeadLetters } from "./listDeadLetters.js";
export {
  type MessageFileFormat,
  type ParseMessageFileOptions,
  parseMessageFile,
} from "./parseMessageFile.js";
export {
  type PurgeDecidedLettersOptions,
  type PurgeReport,
  purgeDecidedLetters,
  type UndeletedLetter,
} from "./purgeDecidedLetters.js";
export { messageFileFormatOf, readMessageFile } from "./readMessageFile.js";
export { readUpInfo, type UpInfo } from "./readUpInfo.js";
export {
  type MovedLetter,
  type RedriveDeadLettersOptions,
  type RedriveReport,
  redriveDeadLetters,
  type UnmovedLetter,
} from "./redriveDeadLetters.js";
export { type SubmitMessagesOptions, submitMessages } from "./submitMessages.js";
export type { FailedEntry, MessageEntry, MessageFile, RefusedEntry, SendReport, SentEntry } from "./types.js";
