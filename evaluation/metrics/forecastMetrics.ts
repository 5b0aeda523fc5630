import { accuracy } from "./accuracy.js";
import { brierScore } from "./brierScore.js";
import { expectedCalibrationError } from "./expectedCalibrationError.js";
import { gradeForecasts } from "./gradeForecasts.js";
import { negativeLogLikelihood } from "./negativeLogLikelihood.js";
import type { Forecast, PredictionOptions, ReliabilityBin } from "./types.js";

/** The four headline metrics of a set of forecasts, with the bins behind the calibration error. */
export interface ForecastMetrics {
  n: number;
  /** {@link accuracy}. */
  accuracy: number;
  /** {@link brierScore} (multi-class, 0–2). */
  brier: number;
  /** {@link negativeLogLikelihood} (nats). */
  nll: number;
  /** {@link expectedCalibrationError} with 10 bins. */
  ece: number;
  /** The 10 reliability bins. */
  bins: ReliabilityBin[];
}

/** Accuracy, Brier score, NLL and 10-bin ECE of the forecasts (NaN each when there are none). */
export function forecastMetrics(
  forecasts: readonly Forecast[],
  options: PredictionOptions = {},
): ForecastMetrics {
  const calibration = expectedCalibrationError(gradeForecasts(forecasts, options));
  return {
    n: forecasts.length,
    accuracy: accuracy(forecasts, options),
    brier: brierScore(forecasts),
    nll: negativeLogLikelihood(forecasts),
    ece: calibration.ece,
    bins: calibration.bins,
  };
}
