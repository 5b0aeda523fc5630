import type { BacklogBenchReport } from "./runBacklogBench.js";

/** The backlog bench's table as printed: the goal's numbers first, then the parts' CPU seconds. */
export function formatBacklogReport(report: BacklogBenchReport): string {
  const mark = (met: boolean) => (met ? "met" : "NOT met");
  const { goal } = report;
  const cpu = (phase: Record<string, number | null>) =>
    Object.entries(phase)
      .map(([part, seconds]) => `${part} ${seconds ?? "n/a"}`)
      .join(", ");
  return `${[
    `backlog: ${report.items} items in ${report.rounds.length} rounds (${report.workload.shared_items} sharing a state, ${report.workload.single_items} single; ${report.workload.distinct_requests} distinct requests), ${report.setup.instances} instances × ${report.setup.max_concurrent_groups} groups = ${report.setup.calls_in_flight} calls against ${report.setup.adapter_admission.running} running + ${report.setup.adapter_admission.waiting} waiting (${report.setup.sizing}), ${report.machine.busy_processes} busy processes beside`,
    `goodput_ratio ${report.goodput_ratio} (median of the rounds' ratios ${report.round_ratios.join(", ")}; pipeline ${report.pipeline_decisions_per_s}/s, adapter alone ${report.adapter_alone_decisions_per_s}/s, medians) — goal ≥ ${goal.goodput_ratio}: ${mark(report.goodput_ratio >= goal.goodput_ratio)}`,
    ...report.rounds.map(
      (round, index) =>
        `  round ${index + 1} (${round.order}, ${round.items} items): pipeline ${round.pipeline_decisions_per_s}/s in ${round.drain_s} s, alone ${round.adapter_alone_decisions_per_s}/s, ratio ${round.ratio}; endpoint busy ${round.endpoint.busy_share}, ${round.endpoint.mean_in_flight} in flight, first call after ${round.endpoint.first_call_s} s, tail ${round.endpoint.tail_s} s, served p50/p95 ${round.endpoint.served_p50_ms}/${round.endpoint.served_p95_ms} ms; functions busy ${round.functions.busy_share}, ${round.functions.mean_running} running, ${round.functions.invocations} invocations of ${round.functions.records_per_invocation} records, queue held with none running ${round.functions.unheld_s} s`,
    ),
    `drain_s ${report.drain_s} | dead_lettered ${report.dead_lettered} | lost ${report.lost} | not_drained ${report.not_drained}`,
    `endpoint_calls ${report.endpoint_calls} | refused_share ${report.refused_share} (goal ≤ ${goal.refused_share}: ${mark(report.refused_share <= goal.refused_share)}) | retries_per_item ${report.retries_per_item} | deliveries_per_item ${report.deliveries_per_item}`,
    `endpoint statuses: ${Object.entries(report.endpoint_statuses)
      .map(([status, n]) => `${status} ${n}`)
      .join(", ")}`,
    `cpu seconds, warm-up: ${cpu(report.cpu_seconds.warm_up)}`,
    `cpu seconds, adapter alone: ${cpu(report.cpu_seconds.adapter_alone)}`,
    `cpu seconds, pipeline: ${cpu(report.cpu_seconds.pipeline)}`,
    `load average ${report.machine.load_average_start.join(" ")} → ${report.machine.load_average_end.join(" ")}`,
    ...report.check.violations.slice(0, 10).map((violation) => `  ${violation.kind}: ${violation.detail}`),
    `goal: ${report.goal_met ? "MET" : "NOT MET"}`,
  ].join("\n")}\n`;
}
