/**
 * The pipeline benchmark (`decisions bench --pipeline`): the local pipeline against the adapter
 * alone, the grouping gain, and the pipeline's own time per item.
 */
export { buildTicketStream, type StreamItem, type TicketStreamOptions } from "./buildTicketStream.js";
export { formatPipelineReport } from "./formatPipelineReport.js";
export { type AdapterAloneRun, measureAdapterAlone } from "./measureAdapterAlone.js";
export {
  type OverheadRow,
  type PipelineBenchOptions,
  type PipelineBenchReport,
  type PipelineBenchSizes,
  runPipelineBench,
} from "./runPipelineBench.js";
export { type PhaseMapping, type PipelinePhase, runPipelinePhase } from "./runPipelinePhase.js";
