export { createDriftMonitorDeps, type DriftMonitorParts } from "./createDriftMonitorDeps.js";
export {
  createDriftMonitorHandler,
  type DriftCheckResult,
  type DriftMonitorDeps,
} from "./createDriftMonitorHandler.js";
export { DriftMonitor, type DriftMonitorOptions } from "./DriftMonitor.js";
export { emitDriftMetrics } from "./emitDriftMetrics.js";
export { type DriftMonitorConfig, readDriftMonitorConfig } from "./readDriftMonitorConfig.js";
