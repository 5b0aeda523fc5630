export {
  AUDIT_QUEUE,
  MAX_KEPT_REVIEWS,
  MAX_KEPT_REVIEWS_BYTES,
  OUTCOME_STATUSES,
  type Outcome,
  type OutcomeAnswer,
  OutcomeAnswerSchema,
  type OutcomeReview,
  OutcomeReviewSchema,
  OutcomeSchema,
  type OutcomeSource,
  type OutcomeStatus,
  REVIEWED_STATUS,
  STORED_OUTCOME_STATUSES,
  type StoredOutcome,
  StoredOutcomeAnswerSchema,
  StoredOutcomeSchema,
  type StoredOutcomeStatus,
} from "../../contract/outcome/OutcomeSchema.js";
export {
  MAX_OUTCOME_BYTES,
  REASON_CHARS,
  STATE_PREVIEW_CHARS,
} from "../../contract/outcome/outcomeLimits.js";
export {
  CONFLICT_PREVIEW_CHARS,
  OUTCOME_CONFLICT_ENTRIES,
  OUTCOME_HISTORY_ENTRIES,
  type OutcomeConflict,
  type OutcomeHistoryEntry,
  SUPERSEDE_ANY,
  SUPERSEDE_ATTRIBUTE,
  SUPERSEDE_REPLACE_REVIEWS_PREFIX,
  WORK_ITEM_KEPT_BYTES,
} from "../../contract/outcome/outcomeRecordSchemas.js";
export {
  OUTCOMES_STATUS_INDEX,
  OUTCOMES_TABLE_KEYS,
  UNPARSED_POLICY,
} from "../../contract/outcome/outcomesTableKeys.js";
export {
  isShadowRecordKey,
  SHADOW_RECORD_KIND,
  SHADOW_RECORD_PREFIX,
  type ShadowCandidate,
  type ShadowRecord,
  ShadowRecordSchema,
  type ShadowResult,
  shadowKeyOf,
} from "../../contract/outcome/ShadowRecordSchema.js";
export {
  boundOutcomeSize,
  jsonBytes,
  minimalRejectedOutcome,
  REASON_PATH_SEGMENT_CHARS,
  REASON_PATH_SEGMENTS,
  SHORT_TEXT_CHARS,
  SOURCE_KEY_CHARS,
  TABLE_ITEM_GUARD_BYTES,
} from "./boundOutcomeSize.js";
export { classifyStoreError } from "./classifyStoreError.js";
export {
  AmendRequiredError,
  MalformedOutcomeError,
  MalformedShadowRecordError,
  NotReviewableError,
  OutcomeAlreadyRecordedError,
  OutcomeNotFoundError,
  OutcomeStoreError,
  OutcomesAccessError,
  OutcomesTableConfigurationError,
  OutcomesTableError,
  ReviewAnswerError,
  ReviewConflictError,
  ReviewHistoryFullError,
  TransientOutcomeStoreError,
} from "./errors.js";
export {
  type FailureRecordCallOptions,
  FailureRecordStore,
  type FailureRecordStoreOptions,
  failureClassOf,
  type RecordFailure,
} from "./FailureRecordStore.js";
export { hasPersonsReview, NO_PERSONS_REVIEW_CONDITION } from "./hasPersonsReview.js";
export {
  type JobLineWriter,
  type OutcomePage,
  OutcomeStore,
  type OutcomeStoreOptions,
} from "./OutcomeStore.js";
export { OutcomesReader, type OutcomesReaderOptions } from "./OutcomesReader.js";
export { openQuestions } from "./openQuestions.js";
export { outcomesTableDefinition } from "./outcomesTable.js";
export { parseReviewAnswer } from "./parseReviewAnswer.js";
export {
  ReviewQueueReader,
  type ReviewQueueReaderOptions,
  type StatusIndexEntry,
  type StatusIndexPage,
  type StatusIndexPosition,
  type StatusPageQuery,
} from "./ReviewQueueReader.js";
export { readStoredOutcome } from "./readStoredOutcome.js";
export { readSupersedeMarker, type SupersedeMarker, supersedeMarkerText } from "./readSupersedeMarker.js";
export { type ReviewOutcomeOptions, type ReviewResult, reviewOutcome, reviewsOf } from "./reviewOutcome.js";
export {
  type ShadowCallOptions,
  type ShadowRange,
  type ShadowRecordInput,
  ShadowRecordStore,
  type ShadowRecordStoreOptions,
} from "./ShadowRecordStore.js";
export { type PayloadSummary, payloadPreview, payloadSha256, summarizePayload } from "./summarizePayload.js";
export { type StateSummary, summarizeState } from "./summarizeState.js";
export type { RecordOptions, RecordResult } from "./types.js";
export {
  putOutcomeOnce,
  standingOutcomeOf,
  translateOutcomeWriteError,
  writeOnceOutcomePut,
} from "./writeOnce.js";
