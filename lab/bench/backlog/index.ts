/**
 * `decisions bench --backlog`: a backlog through the whole local pipeline against the adapter
 * alone at saturation, with the numbers of "busy is not failed" (goodput ratio, dead-lettered,
 * lost, not drained, refused share, retries per item) and each part's CPU seconds.
 */
export { type BacklogItem, buildBacklogItems, groupKey } from "./buildBacklogItems.js";
export { formatBacklogReport } from "./formatBacklogReport.js";
export { type BacklogBenchOptions, type BacklogBenchReport, runBacklogBench } from "./runBacklogBench.js";
export {
  BACKLOG_GOAL,
  type BacklogMeasurements,
  type BacklogSummary,
  meetsBacklogGoal,
  summarizeBacklog,
} from "./summarizeBacklog.js";
