/**
 * Offline batch classification (`decisions classify`): work items from a JSONL file decided in
 * this process by the pipeline core (`core/pipeline`) with the engine as its endpoint, without
 * HTTP or a queue, into a resumable JSONL file of outcomes in the pipeline's format.
 */
export {
  type ClassifyItemsOptions,
  type ClassifyProgress,
  type ClassifySummary,
  classifyItems,
} from "./classifyItems.js";
export { InProcessEndpoint, type InProcessEndpointOptions } from "./InProcessEndpoint.js";
export { ResultsFile, type ResumeState, resultKey } from "./ResultsFile.js";
export { readItemLines } from "./readItemLines.js";
export { type WriteClassifyResultsOptions, writeClassifyResults } from "./writeClassifyResults.js";
