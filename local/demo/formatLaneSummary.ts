import type { JobCompletedDetail } from "../../contract/index.js";
import type { IncidentTiming } from "./timeIncidents.js";

/** What the demo measured of the lanes. */
export interface LaneDemoReport {
  /** Incidents sent with nothing else in the pipeline. */
  alone: readonly IncidentTiming[];
  /** The same number of incidents sent while the batch job drained. */
  during: readonly IncidentTiming[];
  /** Lines of the batch file. */
  batchLines: number;
  /** The job's "Decision Job Completed" detail; undefined when it did not complete in time. */
  job: JobCompletedDetail | undefined;
}

/**
 * The demo's lanes section: the incidents' send→outcome times alone and while the batch job
 * drained (p50 and max, and during ÷ alone), how many were decided before the job completed, and
 * the job's end — every line counted once (`ended = lines`, no duplicates).
 */
export function formatLaneSummary(report: LaneDemoReport): string {
  const completedAt = report.job === undefined ? undefined : Date.parse(report.job.completed_at);
  const alone = seconds(report.alone);
  const during = seconds(report.during);
  const before = report.during.filter(
    (timing) =>
      timing.decidedAt !== undefined && (completedAt === undefined || timing.decidedAt < completedAt),
  ).length;
  const ratio =
    alone.max !== undefined && during.max !== undefined && alone.max > 0
      ? ` (${(during.max / alone.max).toFixed(1)}× alone)`
      : "";
  const out = [
    `Lanes: incidents (interactive lane) alone, then while a batch job of ${report.batchLines} lines (bulk lane) drained`,
    `  alone:          ${describe(report.alone, alone)}`,
    `  during drain:   ${describe(report.during, during)}${ratio}`,
    `                  ${before} of ${report.during.length} decided before the job completed`,
  ];
  const { job } = report;
  if (job === undefined) out.push("  job: did not complete in time");
  else {
    const { counts } = job;
    const byStatus = Object.entries(counts.outcomes)
      .filter(([, count]) => count > 0)
      .map(([status, count]) => `${count} ${status}`)
      .join(", ");
    const once = counts.lines !== undefined && counts.ended === counts.lines && counts.duplicates === 0;
    out.push(
      `  job ${job.job_id}: ${job.status}; ${counts.lines ?? "?"} lines, ${counts.ended} ended (${byStatus || "none"}), ` +
        `${counts.dead_lettered} dead-lettered, ${counts.duplicates} duplicates: ` +
        (once ? "every line counted once" : "NOT every line counted once"),
    );
  }
  return `${out.join("\n")}\n`;
}

function seconds(timings: readonly IncidentTiming[]): { p50?: number; max?: number } {
  const values = timings
    .filter((timing) => timing.decidedAt !== undefined)
    .map((timing) => ((timing.decidedAt ?? 0) - timing.sentAt) / 1000)
    .sort((a, b) => a - b);
  if (values.length === 0) return {};
  return { p50: values[Math.floor((values.length - 1) / 2)], max: values[values.length - 1] };
}

function describe(timings: readonly IncidentTiming[], stats: { p50?: number; max?: number }): string {
  const decided = timings.filter((timing) => timing.decidedAt !== undefined).length;
  const times =
    stats.p50 === undefined || stats.max === undefined
      ? "no outcome"
      : `send→outcome p50 ${stats.p50.toFixed(2)} s, max ${stats.max.toFixed(2)} s`;
  return `${decided} of ${timings.length} incidents decided, ${times}`;
}
