/**
 * The job benchmark (`decisions bench --job`): a large JSONL object through the local pipeline as
 * a batch job — ingest lines/s, drain rate, last outcome → results, peak RSS of ingest and writer.
 */
export { buildJobObject, type JobObject, type JobObjectOptions } from "./buildJobObject.js";
export { formatJobReport } from "./formatJobReport.js";
export { type JobBenchOptions, type JobBenchReport, runJobBench, type StepMemory } from "./runJobBench.js";
