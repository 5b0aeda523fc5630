/**
 * The lanes benchmark (`decisions bench --lanes`): interactive items alone, a bulk job alone, and
 * the job draining while interactive items arrive — during ÷ alone, with the goals.
 */
export { formatLanesReport } from "./formatLanesReport.js";
export {
  type BulkPhase,
  type LaneCheck,
  type LanesBenchOptions,
  type LanesBenchReport,
  runLanesBench,
} from "./runLanesBench.js";
export {
  BULK_GOODPUT_SHARE,
  INTERACTIVE_P95_FACTOR,
  type LanesGoal,
  type LanesMeasurements,
  type LanesSummary,
  type LatencySummary,
  summarizeLanes,
  summarizeLatency,
} from "./summarizeLanes.js";
export { type LaneEnds, type LaneEvidence, tallyLaneEnds } from "./tallyLaneEnds.js";
