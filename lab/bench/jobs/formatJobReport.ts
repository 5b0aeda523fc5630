import type { JobBenchReport } from "./runJobBench.js";

/** The job bench's table, as `decisions bench --job` prints it. */
export function formatJobReport(report: JobBenchReport): string {
  const { ingest, drain, results, object, job } = report;
  const rows: [string, string][] = [
    [
      "object",
      `${object.lines} lines, ${(object.bytes / 2 ** 20).toFixed(2)} MiB, ${object.distinct_states} states, ${object.invalid_lines} not JSON`,
    ],
    [
      "event source",
      `${report.event_source.batch_size} records per decide invocation, ${report.event_source.maximum_concurrency} at once`,
    ],
    [
      "ingest",
      `${ingest.lines_per_s} lines/s (${(ingest.ms / 1000).toFixed(1)} s, ${ingest.invocations} invocation(s), ${ingest.sent} sent, ${ingest.rejected} rejected)`,
    ],
    [
      "ingest peak RSS",
      `${ingest.memory.peak_rss_mib} MiB (+${ingest.memory.growth_mib} MiB over its start)`,
    ],
    [
      "drain",
      `${drain.lines_per_s} lines/s (first line end ${(drain.first_outcome_after_ms / 1000).toFixed(1)} s, last ${(drain.ended_after_ms / 1000).toFixed(1)} s after the upload)`,
    ],
    [
      "last outcome → results",
      `${(results.ended_to_completed_ms / 1000).toFixed(2)} s (the writer's write ${(results.write_ms / 1000).toFixed(2)} s, ${(results.result_bytes / 2 ** 20).toFixed(2)} MiB)`,
    ],
    [
      "writer peak RSS",
      `${results.memory.peak_rss_mib} MiB (+${results.memory.growth_mib} MiB over its start)`,
    ],
    ["job", `${job.status}: ${JSON.stringify(job.counts)}`],
    ["upload → results", `${(report.total_ms / 1000).toFixed(1)} s`],
    [
      "load average",
      `${report.machine.load_average_start.join(", ")} → ${report.machine.load_average_end.join(", ")}`,
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `${report.command}\n${rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join("\n")}\n`;
}
