/** Comparing two sets of decisions of the same items (live vs candidate, two classify runs): pure, no I/O. */
export {
  type AccuracyEstimate,
  type AnswerValue,
  CONFIDENCE_BINS,
  type ComparableAnswer,
  type ComparableDecision,
  type CompareDecisionsInput,
  compareDecisions,
  type DecisionComparison,
  LISTED_DISAGREEMENTS,
  modelAnswerOf,
  type QuestionComparison,
  type Share,
} from "../../core/shadow/index.js";
export { type ComparisonSides, formatComparison } from "./formatComparison.js";
