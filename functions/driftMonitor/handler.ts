/**
 * The drift monitor's entry point (an EventBridge schedule invokes it): configuration read and
 * validated once at cold start, then the middy handler. See `readDriftMonitorConfig` for the variables.
 */
import { createDriftMonitorDeps } from "./createDriftMonitorDeps.js";
import { createDriftMonitorHandler } from "./createDriftMonitorHandler.js";
import { readDriftMonitorConfig } from "./readDriftMonitorConfig.js";

/** The Lambda handler (scheduled event → each policy's drift, its distances published). */
export const handler = createDriftMonitorHandler(createDriftMonitorDeps(readDriftMonitorConfig(process.env)));
