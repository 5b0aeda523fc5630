import { planGoalCapacity } from "../../core/capacity/planGoalCapacity.js";
import { deriveScalingTimes } from "../../infra/capacity/deriveScalingTimes.js";
import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulationResult, TimelinePoint } from "../SimulationResult.js";
import type { SimulatedPipeline } from "./buildPipeline.js";
import type { RunOutcome } from "./runUntilDrained.js";
import type { ConcurrencyPolicy } from "./scheduleAutoscaling.js";
import type { ControllerCounts } from "./scheduleCapacityController.js";

/** What a finished run hands to {@link assembleResult}. */
export interface FinishedRun {
  inputs: SimulationInputs;
  pipeline: SimulatedPipeline;
  policies: ConcurrencyPolicy | undefined;
  controller: ControllerCounts;
  outcome: RunOutcome;
  timeline: TimelinePoint[];
}

/**
 * The result of a finished run, from its models' counters: hours rounded to 3–4 digits, seconds
 * and shares as documented on {@link SimulationResult}, both lanes' counts summed (once without
 * lanes), every pool's instances summed (one pool with `shared`). Times of the job count from its
 * upload; instance-hours from the start of the run, the idle hours included.
 */
export function assembleResult(run: FinishedRun): SimulationResult {
  const { inputs, pipeline, policies, controller, outcome } = run;
  const { tally, sizing, bulk, interactive, fleet, pools, uploadAt } = pipeline;
  const oneLane = interactive === bulk;
  const sum = (of: (pool: (typeof fleet.pools)[number]) => number) =>
    fleet.pools.reduce((total, pool) => total + of(pool), 0);
  const calls = bulk.decide.calls + (oneLane ? 0 : interactive.decide.calls);
  const refused = sum((pool) => pool.refusedCalls);
  const sorted = [...tally.interactiveLatencies].sort((a, b) => a - b);
  const jobSeconds = (outcome.jobEndedAt ?? outcome.end) - uploadAt;
  const instanceHours = sum((pool) => pool.billedSeconds()) / 3600;
  const busyHours = sum((pool) => pool.busySeconds()) / 3600;
  const bulkHours = inputs.layout === "lanes-from-zero" ? pools.bulk.billedSeconds() / 3600 : instanceHours;
  const { firstLineAt, lastLineAt } = tally;
  const goalMinutes = inputs.bulkDrainGoalMinutes;
  const wholeJob = planGoalCapacity({
    inService: inputs.layout === "lanes-from-zero" ? 0 : inputs.minInstances,
    demands: [{ backlog: inputs.lines, goalSeconds: goalMinutes * 60 }],
    secondsPerLine: inputs.plannedSecondsPerLine,
    instanceStartSeconds: inputs.instanceStartSeconds,
    maxInstances: inputs.maxInstances,
  });
  const fromZero = inputs.layout === "lanes-from-zero";
  return {
    capacity: inputs.capacity,
    layout: inputs.layout,
    lanes: inputs.lanes,
    lines: inputs.lines,
    idle_hours: inputs.idleHours,
    bulk_drain_goal_minutes: goalMinutes,
    finished: outcome.finished,
    job_hours: round(jobSeconds / 3600, 4),
    met_goal: outcome.finished && jobSeconds <= goalMinutes * 60,
    goal_within_max: wholeJob.reason !== "capped",
    instance_hours: round(instanceHours, 3),
    bulk_instance_hours: round(bulkHours, 3),
    cost: inputs.instancePrice === undefined ? null : round(instanceHours * inputs.instancePrice, 2),
    busy_instance_hours: round(busyHours, 3),
    paid_over_busy: busyHours > 0 ? round(instanceHours / busyHours, 3) : null,
    peak_busy_instances: sum((pool) => pool.peakBusy),
    peak_in_service_instances: fleet.peakInService,
    peak_calls_in_flight: sum((pool) => pool.peakAdmitted),
    refused_share: calls === 0 ? 0 : round(refused / calls, 4),
    endpoint_calls: calls,
    refused_calls: refused,
    retries: bulk.decide.retries + (oneLane ? 0 : interactive.decide.retries),
    requeued_lines: bulk.decide.requeuedLines + (oneLane ? 0 : interactive.decide.requeuedLines),
    decided_lines: tally.decided,
    dead_lettered_lines: tally.deadLettered,
    lines_per_s:
      firstLineAt === undefined || lastLineAt <= firstLineAt
        ? 0
        : round(tally.bulkEnded / (lastLineAt - uploadAt), 2),
    first_line_s: round(firstLineAt === undefined ? Number.NaN : firstLineAt - uploadAt, 2),
    stated_first_line_s: fromZero
      ? deriveScalingTimes({ instanceStartSeconds: inputs.instanceStartSeconds }).fromZeroFirstLineSeconds
      : null,
    instance_start_s: inputs.instanceStartSeconds,
    interactive: {
      items: tally.interactiveSent,
      p50_s: quantile(sorted, 0.5),
      p95_s: quantile(sorted, 0.95),
      max_s: sorted.length === 0 ? null : round(sorted[sorted.length - 1] as number, 2),
      refused_calls: inputs.lanes ? pools.interactive.refusedByLane.interactive : 0,
    },
    sizing: {
      max_concurrency: sizing.bulk.maxConcurrency,
      groups_per_invocation: sizing.bulk.groupsPerInvocation,
      calls_in_flight: sizing.bulk.maxConcurrency * sizing.bulk.groupsPerInvocation,
    },
    scaling: {
      scale_outs: (policies?.concurrency.scaleOuts ?? 0) + controller.scaleOuts,
      scale_ins: (policies?.concurrency.scaleIns ?? 0) + controller.scaleIns,
      from_zero_steps: controller.fromZeroSteps,
      controller_minimum_checks: controller.minimumChecks,
      back_to_min_hours:
        outcome.backToMinAt === undefined ? null : round((outcome.backToMinAt - uploadAt) / 3600, 3),
    },
    events: outcome.events,
    timeline: run.timeline,
  };
}

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const at = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return round(sorted[Math.max(0, at)] as number, 2);
}

function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
