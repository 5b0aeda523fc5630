export { createResultsWriterDeps, type ResultsWriterParts } from "./createResultsWriterDeps.js";
export { createResultsWriterHandler } from "./createResultsWriterHandler.js";
export { type ResultsWriterConfig, readResultsWriterConfig } from "./readResultsWriterConfig.js";
export { type EndedJobsDeps, writeEndedJobs } from "./writeEndedJobs.js";
