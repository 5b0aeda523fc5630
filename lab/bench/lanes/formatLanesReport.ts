import type { LanesBenchReport } from "./runLanesBench.js";

/**
 * The lanes bench's printed table: the machine and its load, the settings (the interactive rate
 * and where it came from), interactive send→outcome and bulk lines/s alone, during and during ÷
 * alone side by side, what each lane holds at the end, and the goals with PASS/FAIL.
 */
export function formatLanesReport(report: LanesBenchReport): string {
  const { interactive, bulk, settings, machine } = report;
  const row = (name: string, alone: string, during: string, ratio: string) =>
    `  ${name.padEnd(34)}${alone.padStart(12)}${during.padStart(12)}${ratio.padStart(10)}`;
  const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "–");
  const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "–");
  const rateFrom =
    settings.rate_from === "--rate"
      ? "given by --rate"
      : `one per 10 evaluations of ${settings.warm_up_evaluation_ms} ms at the warm-up, at most 1/s`;
  const lines = [
    `bench --lanes (${report.command}): ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gib} GiB, Node.js ${machine.node}`,
    `  load: --busy ${machine.busy_processes} (CPU-bound processes of the bench's own), load average ` +
      `${machine.load_average_start.join(", ")} → ${machine.load_average_end.join(", ")}`,
    `  ${settings.lines}-line bulk job (bulk lane); interactive items at ${settings.rate_per_s}/s (${rateFrom}) ` +
      `on the interactive lane; one evaluation: interactive p50 ${report.evaluation_ms} ms, bulk line p50 ` +
      `${report.bulk_alone.evaluation_ms.p50} ms / p95 ${report.bulk_alone.evaluation_ms.p95} ms; model ${report.model}`,
    "",
    row("", "alone", "during", "÷ alone"),
    row(
      `interactive send→outcome (n)`,
      String(interactive.alone.count),
      String(interactive.during.count),
      "",
    ),
    row("  p50", ms(interactive.alone.p50_ms), ms(interactive.during.p50_ms), x(interactive.ratio.p50)),
    row("  p95", ms(interactive.alone.p95_ms), ms(interactive.during.p95_ms), x(interactive.ratio.p95)),
    row("  max", ms(interactive.alone.max_ms), ms(interactive.during.max_ms), x(interactive.ratio.max)),
    row(
      "bulk lines/s (put → completed)",
      String(bulk.alone_lines_per_s),
      String(bulk.during_lines_per_s),
      x(bulk.ratio),
    ),
    "",
    `  ${report.interactive_during_before_completion} of ${report.interactive_during_sent} interactive items sent during the drain were decided before the job completed`,
    `  jobs: alone ${describeJob(report.bulk_alone)}; during ${describeJob(report.bulk_during)}`,
    ...Object.entries(report.lanes).map(
      ([lane, check]) =>
        `  ${lane} lane: ${check.outcomes}/${check.items} items with an outcome; queue ${check.queued}, ` +
        `DLQ ${check.dead_lettered}; not ended ${check.not_ended}, lost ${check.lost}`,
    ),
    "  (not ended: no outcome, still in its lane's queue when nothing had moved for " +
      `${Math.round(settings.stall_ms / 1000)} s; lost: no outcome and in no queue or DLQ)`,
    "",
    "goals:",
    ...report.goals.map(
      (goal) =>
        `  ${goal.met ? "PASS" : "FAIL"}  ${goal.name}: ${formatNumber(goal.measured)} (bound ${goal.bound})`,
    ),
    "",
  ];
  return `${lines.join("\n")}\n`;
}

function describeJob(job: LanesBenchReport["bulk_alone"]): string {
  return (
    `${job.status}${job.completed ? "" : " (not completed)"}, ${job.counts.lines ?? "?"} lines, ${job.counts.ended} ended, ` +
    `${job.counts.dead_lettered} dead-lettered, ${job.counts.duplicates} duplicates, ` +
    `${job.outcome_rows}/${job.item_ids} outcome rows, ${(job.ms / 1000).toFixed(1)} s`
  );
}

function formatNumber(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : "–";
}
