/**
 * The shadow report: a candidate's shadow records of a policy compared with the live outcomes of the
 * same items (`readShadowReport`), shared by `decisions shadow report` and the review console, and
 * the pure comparison of any two sets of decisions (`compareDecisions`, also behind `decisions
 * compare`).
 */

export type {
  AccuracyEstimate,
  AnswerValue,
  DecisionComparison,
  QuestionComparison,
  ShadowReport,
  Share,
} from "../../contract/outcome/shadowReport.js";
export { asDecided, type DecidedItem, type DecidedWithLabels, shadowDecision } from "./asDecided.js";
export {
  CONFIDENCE_BINS,
  type ComparableAnswer,
  type ComparableDecision,
  type CompareDecisionsInput,
  compareDecisions,
  LISTED_DISAGREEMENTS,
  modelAnswerOf,
} from "./compareDecisions.js";
export { SeveralCandidatesError } from "./errors.js";
export {
  type ReadShadowComparisonOptions,
  readShadowComparison,
  type ShadowComparisonInput,
} from "./readShadowComparison.js";
export {
  LISTED_FAILURES,
  type ReadShadowReportOptions,
  readShadowReport,
} from "./readShadowReport.js";
