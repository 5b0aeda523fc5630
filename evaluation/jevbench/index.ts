/** JevBench's public cases run in-process through the engine, scored and reported as JevBench defines it. */
export {
  formatJevBenchComparison,
  type JevBenchComparisonInfo,
  type JevBenchLayoutRow,
  type JevBenchLayoutRun,
  jevBenchLayoutRow,
} from "./formatJevBenchComparison.js";
export {
  formatJevBenchReport,
  JEVBENCH_CHART_FILES,
  type JevBenchRunInfo,
} from "./formatJevBenchReport.js";
export { JEVBENCH_SUM_TOLERANCE, readJevBenchAnswer } from "./readJevBenchAnswer.js";
export { type RunJevBenchOptions, runJevBench } from "./runJevBench.js";
export {
  type JevBenchMetrics,
  type JevBenchSummary,
  type ParaphraseConsistency,
  type PlannedCase,
  paraphraseConsistency,
  summarizeJevBench,
} from "./summarizeJevBench.js";
export type { JevBenchItem, JevBenchRecord } from "./types.js";
export { type JevBenchComparisonFiles, writeJevBenchComparison } from "./writeJevBenchComparison.js";
export { type JevBenchReportFiles, writeJevBenchReport } from "./writeJevBenchReport.js";
