/**
 * The outcomes table as decision owners use it (`decisions outcomes`): export outcomes (JSONL, CSV,
 * labelled data for `decisions calibrate`), order outcomes by what a label is worth, print a review history, and send items to be decided
 * again (a redecide supersedes the outcome it read, keeping it in the history). Reading outcomes
 * and recording a person's review belong to the table's home, `core/outcomes`.
 */
export { createOutcomesClient } from "./createOutcomesClient.js";
export {
  type ExportCounts,
  type ExportFormat,
  type ExportOutcomesOptions,
  exportOutcomes,
} from "./exportOutcomes.js";
export { formatReviewHistory } from "./formatReviewHistory.js";
export { DEFAULT_ORDER_WINDOW, type OrderedOutcome, orderOutcomes } from "./orderOutcomes.js";
export { outcomesToCsv } from "./outcomesToCsv.js";
export {
  type DiffRedecidedOptions,
  diffRedecided,
  formatRedecideDiff,
  type RedecideChange,
  type RedecideDiff,
} from "./redecideDiff.js";
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
export { type DecidedByRange, decidedBy, type RedecideSelector, readDecidedBy } from "./redecideSelection.js";
export { type LabelledAnswer, type LabelledDecision, toLabelledDecision } from "./toLabelledDecision.js";
export { waitForRedecides } from "./waitForRedecides.js";
