import { loadavg } from "node:os";
import { packageRoot } from "../../../adapter/models/packageRoot.js";
import type { Lane } from "../../../contract/index.js";
import { LANES } from "../../../contract/lanes/lanes.js";
import { describeMachine } from "../describeMachine.js";
import type { InteractiveProbes } from "./InteractiveProbes.js";
import { summarizeLanes } from "./summarizeLanes.js";
import type { LaneEnds } from "./tallyLaneEnds.js";
import type { BulkPhase, LaneCheck, LanesBenchOptions, LanesBenchReport } from "./types.js";

/** Everything a lanes report is made of. */
export interface ReportInputs {
  options: LanesBenchOptions;
  quick: boolean;
  startedAt: Date;
  loadStart: number[];
  busyProcesses: number;
  modelPath: string;
  settings: LanesBenchReport["settings"];
  evaluationMs: number;
  alone: InteractiveProbes;
  during: InteractiveProbes;
  bulkAlone: BulkPhase;
  bulkDuring: BulkPhase;
  /** The during job's `completed_at` (epoch ms; NaN when it did not complete). */
  completedAt: number;
  checks: Record<Lane, LaneCheck>;
}

/** The report: settings, machine, phases, per-lane checks, ratios and goals. */
export function buildLanesReport(inputs: ReportInputs): LanesBenchReport {
  const { options, checks, bulkAlone, bulkDuring } = inputs;
  const sum = (field: keyof LaneEnds) => LANES.reduce((total, lane) => total + checks[lane][field], 0);
  const deadLettered = sum("dead_lettered");
  const notEnded = sum("not_ended");
  const lost = sum("lost");
  const duplicated = bulkAlone.counts.duplicates + bulkDuring.counts.duplicates;
  const summary = summarizeLanes({
    interactiveAlone: inputs.alone.sendToOutcomeMs(),
    interactiveDuring: inputs.during.sendToOutcomeMs(),
    bulkAloneLinesPerS: bulkAlone.lines_per_s,
    bulkDuringLinesPerS: bulkDuring.lines_per_s,
    evaluationMs: inputs.evaluationMs,
    runningEvaluationMs: bulkAlone.evaluation_ms.p95,
    deadLettered,
    notEnded,
    lost,
    duplicated,
  });
  return {
    command: [
      "decisions bench --lanes",
      ...(inputs.quick ? ["--quick"] : []),
      ...(options.busy ? [`--busy ${options.busy}`] : []),
      ...(options.lines !== undefined ? [`--lines ${inputs.settings.lines}`] : []),
      ...(options.rate !== undefined ? [`--rate ${inputs.settings.rate_per_s}`] : []),
    ].join(" "),
    started_at: inputs.startedAt.toISOString(),
    duration_s: Math.round((Date.now() - inputs.startedAt.getTime()) / 1000),
    machine: {
      ...describeMachine(),
      load_average_start: round2(inputs.loadStart),
      load_average_end: round2(loadavg()),
      busy_processes: inputs.busyProcesses,
    },
    model: inputs.modelPath.replace(`${packageRoot()}/`, ""),
    settings: inputs.settings,
    evaluation_ms: inputs.evaluationMs,
    bulk_alone: bulkAlone,
    bulk_during: bulkDuring,
    interactive_during_sent: inputs.during.sent,
    interactive_during_before_completion: inputs.during.timings.filter(
      (timing) => timing.decidedAt !== undefined && timing.decidedAt < inputs.completedAt,
    ).length,
    lanes: checks,
    dead_lettered: deadLettered,
    not_ended: notEnded,
    lost,
    duplicated,
    ...summary,
  };
}

function round2(values: number[]): number[] {
  return values.map((value) => Math.round(value * 100) / 100);
}
