/**
 * The outcomes table as decision owners use it (`decisions outcomes`): list and show outcomes,
 * export them (JSONL, CSV, labelled data for `decisions calibrate`), record a person's review
 * of an outcome, conditional on it not having changed since it was read, and send items to be
 * decided again (a redecide supersedes the outcome it read, keeping it in the history).
 */
export { createOutcomesClient } from "./createOutcomesClient.js";
export {
  AmendRequiredError,
  MalformedOutcomeError,
  NotReviewableError,
  OutcomeNotFoundError,
  OutcomesTableError,
  ReviewAnswerError,
  ReviewConflictError,
  ReviewHistoryFullError,
} from "./errors.js";
export {
  type ExportCounts,
  type ExportFormat,
  type ExportOutcomesOptions,
  exportOutcomes,
} from "./exportOutcomes.js";
export { formatReviewHistory } from "./formatReviewHistory.js";
export { OutcomesReader, type OutcomesReaderOptions } from "./OutcomesReader.js";
export { openQuestions } from "./openQuestions.js";
export { outcomesToCsv } from "./outcomesToCsv.js";
export { parseReviewAnswer } from "./parseReviewAnswer.js";
export {
  planRedecide,
  type RedecidePlan,
  type RedecideReviewOptions,
  type RedecideSent,
  type SendRedecidesOptions,
  sendRedecides,
  supersedeMarker,
  type UnsendableOutcome,
} from "./redecideOutcomes.js";
export { type ReviewOutcomeOptions, type ReviewResult, reviewOutcome, reviewsOf } from "./reviewOutcome.js";
export { type LabelledAnswer, type LabelledDecision, toLabelledDecision } from "./toLabelledDecision.js";
