import { DRIFT_MONITOR_SETTINGS } from "../../contract/settings/driftMonitorSettings.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/**
 * The drift monitor's configuration, read once at cold start. Each variable's parser, default and
 * meaning are its entry in {@link DRIFT_MONITOR_SETTINGS} (`contract/settings/driftMonitorSettings.ts`).
 */
export interface DriftMonitorConfig {
  /** `OUTCOMES_TABLE` (required). */
  outcomesTable: string;
  /** `DRIFT_POLICIES` (required): the policies checked. */
  policies: string[];
  /** `DRIFT_WINDOW_MINUTES`. Default 60. */
  windowMinutes: number;
  /** `DRIFT_BASELINE_WINDOWS`. Default 24. */
  baselineWindows: number;
  /** `DRIFT_MIN_OUTCOMES`. Default 50. */
  minOutcomes: number;
  /** `DRIFT_THRESHOLD` (bits). Default 0.1. */
  threshold: number;
}

/**
 * Reads and validates the drift monitor's environment (see {@link DriftMonitorConfig}).
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readDriftMonitorConfig(
  env: Readonly<Record<string, string | undefined>>,
): DriftMonitorConfig {
  return parseEnvironment("drift monitor", DRIFT_MONITOR_SETTINGS, env);
}
