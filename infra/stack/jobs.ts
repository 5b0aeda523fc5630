import { join } from "node:path";
import { JobCompletedEvents } from "../constructs/JobCompletedEvents.js";
import { JobResultsFunction } from "../constructs/JobResultsFunction.js";
import { JobsMonitorFunction } from "../constructs/JobsMonitorFunction.js";
import type { StackHost, StackInputs } from "./stackInputs.js";

/** The function that writes a job's results once its last line has ended. */
export function addJobResultsFunction(
  host: StackHost<"jobs" | "ingestBucket">,
  { settings, sources, projectRoot, logRetention }: StackInputs,
): JobResultsFunction {
  return new JobResultsFunction(host, "JobResults", {
    entry: sources.resultsEntry ?? join(projectRoot, "functions", "results", "handler.ts"),
    projectRoot,
    jobsTable: host.jobs.table,
    bucket: host.ingestBucket.bucket,
    memorySize: settings.functionMemoryMb,
    metricsNamespace: settings.metricsNamespace,
    logRetention,
  });
}

/** "Decision Job Completed" events on the outcomes bus, from the jobs table's stream. */
export function addJobEvents(
  host: StackHost<"jobs" | "outcomes">,
  { sources, projectRoot, logRetention }: StackInputs,
): JobCompletedEvents {
  return new JobCompletedEvents(host, "JobEvents", {
    entry: sources.jobEventsEntry ?? join(projectRoot, "functions", "jobEvents", "handler.ts"),
    projectRoot,
    streamArn: host.jobs.streamArn,
    bus: host.outcomes.bus,
    logRetention,
  });
}

/** The scheduled check of the jobs in progress. */
export function addJobsMonitorFunction(
  host: StackHost<"jobs">,
  { settings, sources, projectRoot, logRetention }: StackInputs,
): JobsMonitorFunction {
  return new JobsMonitorFunction(host, "JobsMonitor", {
    entry: sources.jobsMonitorEntry ?? join(projectRoot, "functions", "jobsMonitor", "handler.ts"),
    projectRoot,
    jobsTable: host.jobs.table,
    listIndexArn: host.jobs.listIndexArn,
    stallMinutes: settings.jobStallMinutes,
    metricsNamespace: settings.metricsNamespace,
    logRetention,
  });
}
