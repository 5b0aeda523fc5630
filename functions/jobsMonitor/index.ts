export { createJobsMonitorDeps, type JobsMonitorParts } from "./createJobsMonitorDeps.js";
export { createJobsMonitorHandler, type JobsMonitorDeps } from "./createJobsMonitorHandler.js";
export { emitJobsTally } from "./emitJobsTally.js";
export { type JobsCheck, JobsMonitor, type JobsMonitorOptions } from "./JobsMonitor.js";
export { type JobsMonitorConfig, readJobsMonitorConfig } from "./readJobsMonitorConfig.js";
export { type JobsTally, tallyJobs } from "./tallyJobs.js";
