export { endCheckOutstanding } from "./endCheckOutstanding.js";
export {
  JobNotFoundError,
  JobResultsMismatchError,
  JobsAccessError,
  JobsTableError,
  MalformedJobError,
} from "./errors.js";
export { JobLedger, type JobLedgerOptions } from "./JobLedger.js";
export {
  type JobCompletedPublisher,
  type JobResultsOutcome,
  JobResultsWriter,
  type JobResultsWriterOptions,
} from "./JobResultsWriter.js";
export { JobsReader, type JobsReaderOptions } from "./JobsReader.js";
export { jobCompletedDetailOf } from "./jobCompletedDetailOf.js";
export { type JobObject, jobIdOf } from "./jobIdOf.js";
export { type JobLedgerWiring, jobLedgerOf } from "./jobLedgerOf.js";
export { jobsTableDefinition } from "./jobsTable.js";
export { type OutcomeWriting, outcomeWritingOf } from "./outcomeWritingOf.js";
export { readJobAttributes } from "./readJobAttributes.js";
export { resultLineOf } from "./resultLineOf.js";
export { UsageTally } from "./UsageTally.js";
