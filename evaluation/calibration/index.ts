/**
 * Calibration of a policy's questions from labelled decisions: temperature scaling (optionally
 * with per-label biases), a seeded held-out split, the error-budget threshold, and writing the
 * result into the policy file.
 */
export { bumpVersion } from "./bumpVersion.js";
export { type CalibrationMap, calibrateForecast } from "./calibrateForecast.js";
export {
  type CalibrateOptions,
  type CalibrationReport,
  calibratePolicy,
  outcomeAt,
  type QuestionCalibrationReport,
} from "./calibratePolicy.js";
export { type CollectedForecasts, collectForecasts, type LabelledForecast } from "./collectForecasts.js";
export { LabelledDataError, type LabelledDataProblem, PolicyWriteError } from "./errors.js";
export { findThreshold, type ThresholdChoice, type ThresholdOptions } from "./findThreshold.js";
export {
  type ContextualFit,
  type FitContextualOptions,
  fitContextualCalibration,
} from "./fitContextualCalibration.js";
export { type FitTemperatureOptions, fitTemperature, type TemperatureFit } from "./fitTemperature.js";
export { calibrationChartFiles, formatCalibrationReport } from "./formatCalibrationReport.js";
export {
  type HeldOutJudgement,
  type HeldOutVerdict,
  judgeHeldOut,
  type ThresholdOutcome,
} from "./judgeHeldOut.js";
export {
  type LabelledAnswer,
  LabelledAnswerSchema,
  type LabelledDecision,
  LabelledDecisionSchema,
} from "./LabelledDecisionSchema.js";
export { type LabelledLine, readLabelledDecisions } from "./readLabelledDecisions.js";
export {
  type LabelledScoring,
  type ScoredLabelledDecisions,
  type ScoreLabelledOptions,
  scoreLabelledDecisions,
} from "./scoreLabelledDecisions.js";
export { type HeldOutOptions, isHeldOut, splitHeldOut } from "./splitHeldOut.js";
export { writeCalibrationReport } from "./writeCalibrationReport.js";
export {
  type PolicyCalibrationEdit,
  type QuestionCalibration,
  writePolicyCalibration,
} from "./writePolicyCalibration.js";
