/** Metrics of probabilistic decisions, as JevBench defines them: pure functions, no I/O. */
export { accuracy } from "./accuracy.js";
export { brierScore } from "./brierScore.js";
export { type CoveragePoint, CURVE_THRESHOLDS, coverageErrorCurve } from "./coverageErrorCurve.js";
export { effectiveSampleSize } from "./effectiveSampleSize.js";
export {
  CALIBRATION_BINS,
  type CalibrationErrorResult,
  expectedCalibrationError,
} from "./expectedCalibrationError.js";
export { type ForecastMetrics, forecastMetrics } from "./forecastMetrics.js";
export { gradeForecasts } from "./gradeForecasts.js";
export { NLL_PROBABILITY_FLOOR, negativeLogLikelihood } from "./negativeLogLikelihood.js";
export { predictedIndex, predictedLabel } from "./predictedLabel.js";
export type { Forecast, GradedDecision, PredictionOptions, ReliabilityBin, TieBreak } from "./types.js";
export { weightOf } from "./weightOf.js";
export {
  type ProportionInterval,
  weightedWilsonInterval,
  wilsonScoreInterval,
  wilsonUpperBound,
  Z_95_TWO_SIDED,
} from "./wilsonScoreInterval.js";
