/**
 * The results writer's entry point: configuration read and validated once at cold start, then the
 * middy handler. See `readResultsWriterConfig` for the variables.
 */
import { createResultsWriterDeps } from "./createResultsWriterDeps.js";
import { createResultsWriterHandler } from "./createResultsWriterHandler.js";
import { readResultsWriterConfig } from "./readResultsWriterConfig.js";

/** The Lambda handler (jobs table stream records → `{batchItemFailures}`). */
export const handler = createResultsWriterHandler(
  createResultsWriterDeps(readResultsWriterConfig(process.env)),
);
