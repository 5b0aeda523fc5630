import type { ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import type { ChaosCheck } from "../../chaos/checkChaosInvariant.js";
import { describeMachine } from "../describeMachine.js";
import {
  ADAPTER_ADMISSION,
  ADAPTER_CLIENTS,
  BATCH_SIZE,
  BATCHING_WINDOW_MS,
  MAX_RECEIVE_COUNT,
} from "./constants.js";
import { requestsOf } from "./distinctRequests.js";
import type { BacklogWorkload } from "./prepareBacklogWorkload.js";
import type { RoundTotals } from "./runBacklogRound.js";
import type { BacklogBenchSetup } from "./setupBacklogBench.js";
import { BACKLOG_GOAL, meetsBacklogGoal, summarizeBacklog } from "./summarizeBacklog.js";
import type { BacklogBenchOptions, BacklogBenchReport, MeasuredPhase } from "./types.js";

/** Everything a report is made of. */
export interface ReportInputs {
  options: BacklogBenchOptions;
  setup: BacklogBenchSetup;
  startedAt: Date;
  loadStart: number[];
  busy: readonly ChildProcess[];
  workload: BacklogWorkload;
  totals: RoundTotals;
  check: ChaosCheck;
  warm: MeasuredPhase;
}

/** The summary's numbers first, then how they were measured (its duration and load taken now). */
export function buildBacklogReport(inputs: ReportInputs): BacklogBenchReport {
  const { options, setup, startedAt, loadStart, busy, workload, totals, check, warm } = inputs;
  const { items, roundItems, modelPath } = workload;
  const summary = summarizeBacklog({
    items: items.length,
    decided: check.counts.decided,
    deadLettered: check.counts.deadLettered,
    lost: check.counts.lost,
    notDrained: check.counts.notDrained,
    endpointStatuses: totals.statuses,
    deliveries: totals.deliveries,
    rounds: totals.measuredRounds,
  });
  return {
    ...summary,
    command: commandOf(options, setup.quick),
    started_at: startedAt.toISOString(),
    duration_s: round((Date.now() - startedAt.getTime()) / 1000),
    quick: setup.quick,
    goal: BACKLOG_GOAL,
    goal_met: meetsBacklogGoal(summary),
    machine: {
      ...describeMachine(),
      load_average_start: loadStart.map(round),
      load_average_end: loadavg().map(round),
      busy_processes: busy.length,
    },
    model: modelPath,
    workload: {
      policies: countBy(items, (item) => item.policy),
      shared_items: items.filter((item) => item.shared).length,
      single_items: items.filter((item) => !item.shared).length,
      distinct_requests: requestsOf(roundItems),
    },
    setup: {
      instances: setup.instances,
      max_concurrent_groups: setup.maxConcurrentGroups,
      batch_size: BATCH_SIZE,
      maximum_batching_window_ms: BATCHING_WINDOW_MS,
      function_timeout_ms: setup.functionTimeoutMs,
      visibility_timeout_s: setup.visibilityTimeoutSeconds,
      max_receive_count: MAX_RECEIVE_COUNT,
      adapter_admission: { ...ADAPTER_ADMISSION },
      sizing: setup.sizing,
      calls_in_flight: setup.instances * setup.maxConcurrentGroups,
    },
    adapter_alone: {
      runs: totals.alone.map((run) => ({
        wall_s: round(run.wallS),
        decisions_per_s: round(run.decisionsPerS),
        requests: run.requests,
      })),
      clients: ADAPTER_CLIENTS,
    },
    rounds: totals.rounds,
    endpoint_statuses: countBy(totals.statuses, String),
    check: { ok: check.ok, counts: check.counts, violations: check.violations },
    cpu_seconds: {
      warm_up: { wall_s: warm.wallS, ...warm.cpu },
      adapter_alone: totals.aloneCpu,
      pipeline: totals.pipelineCpu,
    },
  };
}

function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

function commandOf(options: BacklogBenchOptions, quick: boolean): string {
  return [
    "decisions bench --backlog",
    ...(options.items !== undefined ? [`--items ${options.items}`] : []),
    ...(quick ? ["--quick"] : []),
    ...(options.busy ? [`--busy ${options.busy}`] : []),
    ...(options.rounds !== undefined ? [`--rounds ${options.rounds}`] : []),
    ...(options.instances !== undefined ? [`--instances ${options.instances}`] : []),
    ...(options.maxConcurrentGroups !== undefined ? [`--groups ${options.maxConcurrentGroups}`] : []),
    ...(options.modelPath ? [`--model ${options.modelPath}`] : []),
  ].join(" ");
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
