/**
 * The API's JSON shapes as the page reads them: the server's own types (`contract/outcome/`: the
 * review views, the drift report, the shadow report), imported as types only, so the bundle takes
 * no code from them.
 */
export type { QuestionDrift } from "../../contract/outcome/driftReport.js";
export type {
  ConsoleDriftReport,
  ItemView,
  PolicyStats,
  QueueItem,
  QueuePage,
  WaitingCount,
} from "../../contract/outcome/reviewViews.js";
export type {
  AccuracyEstimate,
  QuestionComparison,
  ShadowReport,
} from "../../contract/outcome/shadowReport.js";
