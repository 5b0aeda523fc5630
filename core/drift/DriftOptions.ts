import { DEFAULT_DRIFT_THRESHOLD } from "../../contract/settings/driftMonitorSettings.js";
import { DriftOptionsError } from "./errors.js";

/** How drift is measured; every field has a default ({@link DEFAULT_DRIFT_OPTIONS}). */
export interface DriftOptions {
  /** Minutes of the window (the outcomes compared). Default 60. */
  windowMinutes: number;
  /** Windows the baseline spans, just before the window. Default 24 (a day of hours). */
  baselineWindows: number;
  /** Equal-width bins of the model's top probability over [0, 1]. Default 10. */
  confidenceBins: number;
  /**
   * Pseudo-count added to every category (option or bin) of both sides before the distance is
   * taken (Jeffreys' 0.5): an option seen a few times on one side only moves the distance by what
   * its counts support, and a side with few items is pulled towards uniform. Default 0.5.
   */
  smoothing: number;
  /** Answers the window and the baseline must each hold for a distance to count. Default 50. */
  minOutcomes: number;
  /** Distance (bits) above which a question is over the alarm threshold. Default 0.1. */
  threshold: number;
  /** An option whose share changed by at least this much (absolute, 0–1) is listed as moved. Default 0.05. */
  movedShare: number;
  /** An option the model chose in less than this share of the answers is flagged rare. Default 0.01. */
  rareShare: number;
  /**
   * An option is flagged as confused with another when reviewers gave that other answer for at
   * least this share of the reviewed items the model answered with it. Default 0.5.
   */
  confusedShare: number;
  /** Reviewed items of an option needed before it can be flagged as confused. Default 5. */
  minReviews: number;
}

/** The defaults of {@link DriftOptions}. */
export const DEFAULT_DRIFT_OPTIONS: Readonly<DriftOptions> = {
  windowMinutes: 60,
  baselineWindows: 24,
  confidenceBins: 10,
  smoothing: 0.5,
  minOutcomes: 50,
  threshold: DEFAULT_DRIFT_THRESHOLD,
  movedShare: 0.05,
  rareShare: 0.01,
  confusedShare: 0.5,
  minReviews: 5,
};

/**
 * The defaults with `given` over them, checked.
 * @throws DriftOptionsError naming every option out of its range.
 */
export function resolveDriftOptions(given: Partial<DriftOptions> = {}): DriftOptions {
  const options: DriftOptions = { ...DEFAULT_DRIFT_OPTIONS };
  for (const [key, value] of Object.entries(given) as [keyof DriftOptions, number | undefined][]) {
    if (value !== undefined) options[key] = value;
  }
  const problems: string[] = [];
  const whole = (key: keyof DriftOptions, min: number, max: number) => {
    const value = options[key];
    if (!Number.isInteger(value) || value < min || value > max)
      problems.push(`${key} must be a whole number from ${min} to ${max}, got ${value}`);
  };
  const share = (key: keyof DriftOptions, min: number) => {
    const value = options[key];
    if (!(value >= min && value <= 1)) problems.push(`${key} must be from ${min} to 1, got ${value}`);
  };
  whole("windowMinutes", 1, 525_600);
  whole("baselineWindows", 1, 10_000);
  whole("confidenceBins", 2, 100);
  whole("minOutcomes", 1, Number.MAX_SAFE_INTEGER);
  whole("minReviews", 1, Number.MAX_SAFE_INTEGER);
  if (!(options.smoothing >= 0 && Number.isFinite(options.smoothing)))
    problems.push(`smoothing must be a finite number from 0 up, got ${options.smoothing}`);
  if (!(options.threshold > 0 && options.threshold <= 1))
    problems.push(`threshold must be above 0 and at most 1 (bits), got ${options.threshold}`);
  share("movedShare", 0);
  share("rareShare", 0);
  share("confusedShare", 0);
  if (problems.length > 0) throw new DriftOptionsError(problems);
  return options;
}
