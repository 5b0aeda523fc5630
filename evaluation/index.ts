/**
 * Evaluation of decision models and policies: JevBench's metrics, calibration of a policy from
 * labelled decisions, what a budget of review labels buys, the JevBench runner, and their reports and charts. See README.md. The
 * folders' own index files list their smaller helpers.
 */
export {
  type BudgetSimulation,
  formatBudgetSimulation,
  simulateReviewBudget,
} from "./budget/index.js";
export {
  type CalibrateOptions,
  type CalibrationReport,
  calibratePolicy,
  collectForecasts,
  findThreshold,
  fitContextualCalibration,
  fitTemperature,
  LabelledDataError,
  type LabelledDecision,
  LabelledDecisionSchema,
  PolicyWriteError,
  readLabelledDecisions,
  scoreLabelledDecisions,
  splitHeldOut,
  writeCalibrationReport,
  writePolicyCalibration,
} from "./calibration/index.js";
export { renderCoverageErrorCurve, renderReliabilityDiagram } from "./charts/index.js";
export {
  type ComparableDecision,
  compareDecisions,
  type DecisionComparison,
  formatComparison,
} from "./comparison/index.js";
export {
  type JevBenchItem,
  type JevBenchRecord,
  type JevBenchSummary,
  runJevBench,
  summarizeJevBench,
  writeJevBenchComparison,
  writeJevBenchReport,
} from "./jevbench/index.js";
export {
  countPromptVersions,
  DEFAULT_LAYOUT,
  formatPromptVersions,
  isLayoutChoice,
  LAYOUT_CHOICES,
  type LayoutChoice,
} from "./layoutChoices.js";
export {
  accuracy,
  brierScore,
  coverageErrorCurve,
  expectedCalibrationError,
  type Forecast,
  forecastMetrics,
  gradeForecasts,
  negativeLogLikelihood,
  predictedLabel,
} from "./metrics/index.js";
