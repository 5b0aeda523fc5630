import { JOBS_MONITOR_SETTINGS } from "../../contract/index.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/**
 * The jobs monitor's configuration, read once at cold start. Each variable's parser, default and
 * meaning are its entry in {@link JOBS_MONITOR_SETTINGS} (`contract/settings/jobsMonitorSettings.ts`).
 */
export interface JobsMonitorConfig {
  /** `JOBS_TABLE` (required). */
  jobsTable: string;
  /** `JOB_STALL_MINUTES`: a job not final and unchanged this long is stalled. Default 60. */
  stallMinutes: number;
  /** `JOB_LOOKBACK_DAYS`: jobs created this many days ago or less are checked. Default 14. */
  lookbackDays: number;
}

/**
 * Reads and validates the jobs monitor's environment (see {@link JobsMonitorConfig}).
 *
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readJobsMonitorConfig(env: Readonly<Record<string, string | undefined>>): JobsMonitorConfig {
  return parseEnvironment("jobs monitor", JOBS_MONITOR_SETTINGS, env);
}
