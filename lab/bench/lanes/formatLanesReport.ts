import type { LanesBenchReport } from "./runLanesBench.js";

/** The lanes bench's printed table: interactive and bulk during ÷ alone, the checks, the goals. */
export function formatLanesReport(report: LanesBenchReport): string {
  const { interactive, bulk } = report;
  const row = (name: string, alone: string, during: string, ratio: string) =>
    `  ${name.padEnd(34)}${alone.padStart(12)}${during.padStart(12)}${ratio.padStart(10)}`;
  const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "–");
  const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "–");
  const lines = [
    `bench --lanes: ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.busy_processes} busy processes, ` +
      `load average ${report.machine.load_average_start.join(", ")} → ${report.machine.load_average_end.join(", ")}`,
    `  ${report.settings.lines}-line bulk job (bulk lane); interactive items at ${report.settings.rate_per_s}/s (interactive lane); ` +
      `one evaluation ${report.evaluation_ms} ms; model ${report.model}`,
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
    `  DLQs: ${Object.entries(report.dead_letter_queues)
      .map(([lane, depth]) => `${lane} ${depth}`)
      .join(", ")}`,
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
    `${job.status}, ${job.counts.lines ?? "?"} lines, ${job.counts.ended} ended, ${job.counts.dead_lettered} dead-lettered, ` +
    `${job.counts.duplicates} duplicates, ${job.outcome_rows}/${job.item_ids} outcome rows, ${(job.ms / 1000).toFixed(1)} s`
  );
}

function formatNumber(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : "–";
}
