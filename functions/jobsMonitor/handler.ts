/**
 * The jobs monitor's entry point (an EventBridge schedule invokes it every 5 minutes):
 * configuration read and validated once at cold start, then the middy handler. See
 * `readJobsMonitorConfig` for the variables.
 */
import { createJobsMonitorDeps } from "./createJobsMonitorDeps.js";
import { createJobsMonitorHandler } from "./createJobsMonitorHandler.js";
import { readJobsMonitorConfig } from "./readJobsMonitorConfig.js";

/** The Lambda handler (scheduled event → the tally, its metrics published). */
export const handler = createJobsMonitorHandler(createJobsMonitorDeps(readJobsMonitorConfig(process.env)));
