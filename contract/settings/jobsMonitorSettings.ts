import type { Setting } from "./Setting.js";
import { integerSetting, nonEmptyTextSetting } from "./settingSchemas.js";

/**
 * The jobs monitor's environment (`functions/jobsMonitor/readJobsMonitorConfig.ts` reads it at cold
 * start; the CDK app's `JobsMonitor` writes it, `stallMinutes` from the knob `jobStallMinutes`).
 */
export const JOBS_MONITOR_SETTINGS = {
  jobsTable: {
    env: ["JOBS_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the jobs table whose jobs in progress are checked",
  },
  stallMinutes: {
    env: ["JOB_STALL_MINUTES"],
    schema: integerSetting(1, 10_080),
    default: { value: 60 },
    doc: "a job not final whose record has not changed for this many minutes counts as stalled",
  },
  lookbackDays: {
    env: ["JOB_LOOKBACK_DAYS"],
    schema: integerSetting(1, 365),
    default: { value: 14 },
    doc: "jobs created this many days ago or less are checked (the dead-letter queue keeps a line 14 days)",
  },
} as const satisfies Record<string, Setting<unknown>>;
