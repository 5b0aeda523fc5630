import type { PipelineBenchReport } from "./runPipelineBench.js";

/** The pipeline bench's report as a short table for the terminal. */
export function formatPipelineReport(report: PipelineBenchReport): string {
  const { P5, grouping, overhead, machine } = report;
  const alone = P5.details.adapter_alone as { decisions_per_s: number; items: number };
  const pipeline = P5.details.pipeline as { decisions_per_s: number };
  const lines = [
    `${report.command} — ${report.model}`,
    `machine: ${machine.cores} cores, load average ${machine.load_average_start.join(" ")} at start, ${machine.load_average_end.join(" ")} at end`,
    `P5  ${P5.value.toFixed(3)} (goal ${P5.goal}, ${P5.met ? "met" : "not met"}): pipeline ${pipeline.decisions_per_s.toFixed(2)} decisions/s, adapter alone ${alone.decisions_per_s.toFixed(2)} decisions/s on ${alone.items} items`,
    `grouping: ${grouping.items} tickets, ${grouping.distinct_states} distinct states: ${grouping.pipeline_tokens_per_item} prompt tokens/item through the pipeline vs ${grouping.one_question_tokens_per_item} one question per request`,
    `          ratio ${grouping.ratio} (gain ×${grouping.gain}); token-count limit ${grouping.token_count_limit}`,
    "overhead outside the model (one batch, one request at a time):",
    "  batch size   items   wall ms   adapter ms   overhead ms/item",
    ...overhead.map(
      (row) =>
        `  ${String(row.batch_size).padStart(10)}   ${String(row.items).padStart(5)}   ${String(row.wall_ms).padStart(7)}   ${String(row.adapter_ms).padStart(10)}   ${row.overhead_ms_per_item.toFixed(1).padStart(16)}`,
    ),
    "CPU seconds per process (P5's runs; the emulators share these cores with the adapter):",
    ...Object.entries(report.cpu_seconds).map(
      ([phase, parts]) =>
        `  ${phase}: ${Object.entries(parts)
          .map(([name, seconds]) => `${name} ${seconds ?? "n/a"}`)
          .join(", ")}`,
    ),
    `duration ${report.duration_s} s`,
  ];
  return `${lines.join("\n")}\n`;
}
