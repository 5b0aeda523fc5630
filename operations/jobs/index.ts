/** Batch jobs as their owners follow them: the jobs table read, a wait, the results object. */
export {
  JobNotFoundError,
  JobResultsNotReadyError,
  JobResultsReadError,
  JobsTableError,
  MalformedJobError,
} from "./errors.js";
export { JobsReader, type JobsReaderOptions } from "./JobsReader.js";
export { type JobSummary, jobSummary } from "./jobSummary.js";
export { parseS3Uri, readJobResults, type S3Location } from "./readJobResults.js";
export { type WaitForJobOptions, type WaitForJobResult, waitForJob } from "./waitForJob.js";
