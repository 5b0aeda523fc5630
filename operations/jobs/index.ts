/**
 * Batch jobs as their owners follow them: a summary, a wait, the results object. The jobs table
 * is read through its home's one reader, `core/jobs` `JobsReader`.
 */
export { JobResultsNotReadyError, JobResultsReadError } from "./errors.js";
export { type JobSummary, jobSummary } from "./jobSummary.js";
export { parseS3Uri, readJobResults, type S3Location } from "./readJobResults.js";
export { type WaitForJobOptions, type WaitForJobResult, waitForJob } from "./waitForJob.js";
