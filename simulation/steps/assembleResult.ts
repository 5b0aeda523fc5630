import type { SimulationInputs } from "../SimulationInputs.js";
import type { SimulationResult, TimelinePoint } from "../SimulationResult.js";
import type { SimulatedPipeline } from "./buildPipeline.js";
import type { RunOutcome } from "./runUntilDrained.js";
import type { ScalingPolicies } from "./scheduleAutoscaling.js";
import type { ControllerCounts } from "./scheduleCapacityController.js";

/** What a finished run hands to {@link assembleResult}. */
export interface FinishedRun {
  inputs: SimulationInputs;
  pipeline: SimulatedPipeline;
  policies: ScalingPolicies;
  controller: ControllerCounts;
  outcome: RunOutcome;
  timeline: TimelinePoint[];
}

/**
 * The result of a finished run, from its models' counters: hours rounded to 3–4 digits, seconds
 * and shares as documented on {@link SimulationResult}, both lanes' counts summed (once without lanes).
 */
export function assembleResult(run: FinishedRun): SimulationResult {
  const { inputs, pipeline, policies, controller, outcome } = run;
  const { endpoint, tally, sizing, bulk, interactive } = pipeline;
  const oneLane = interactive === bulk;
  const calls = bulk.decide.calls + (oneLane ? 0 : interactive.decide.calls);
  const refused = endpoint.refusedCalls;
  const sorted = [...tally.interactiveLatencies].sort((a, b) => a - b);
  const jobSeconds = (outcome.jobEndedAt ?? outcome.end) - 0;
  const instanceHours = endpoint.billedSeconds() / 3600;
  const { firstLineAt, lastLineAt } = tally;
  return {
    capacity: inputs.capacity,
    lanes: inputs.lanes,
    lines: inputs.lines,
    finished: outcome.finished,
    job_hours: round(jobSeconds / 3600, 4),
    instance_hours: round(instanceHours, 3),
    cost: inputs.instancePrice === undefined ? null : round(instanceHours * inputs.instancePrice, 2),
    busy_instance_hours: round(endpoint.busySeconds() / 3600, 3),
    peak_busy_instances: endpoint.peakBusy,
    peak_in_service_instances: endpoint.peakInService,
    peak_calls_in_flight: endpoint.peakAdmitted,
    refused_share: calls === 0 ? 0 : round(refused / calls, 4),
    endpoint_calls: calls,
    refused_calls: refused,
    retries: bulk.decide.retries + (oneLane ? 0 : interactive.decide.retries),
    requeued_lines: bulk.decide.requeuedLines + (oneLane ? 0 : interactive.decide.requeuedLines),
    decided_lines: tally.decided,
    dead_lettered_lines: tally.deadLettered,
    lines_per_s:
      firstLineAt === undefined || lastLineAt <= firstLineAt ? 0 : round(tally.bulkEnded / lastLineAt, 2),
    first_line_s: round(firstLineAt ?? Number.NaN, 2),
    interactive: {
      items: tally.interactiveSent,
      p50_s: quantile(sorted, 0.5),
      p95_s: quantile(sorted, 0.95),
      max_s: sorted.length === 0 ? null : round(sorted[sorted.length - 1] as number, 2),
      refused_calls:
        endpoint.refusedByLane.interactive - (inputs.lanes ? 0 : endpoint.refusedByLane.interactive),
    },
    sizing: {
      max_concurrency: sizing.bulk.maxConcurrency,
      groups_per_invocation: sizing.bulk.groupsPerInvocation,
      calls_in_flight: sizing.bulk.maxConcurrency * sizing.bulk.groupsPerInvocation,
    },
    scaling: {
      scale_outs: policies.concurrency.scaleOuts + (policies.backlog?.scaleOuts ?? 0),
      scale_ins: policies.concurrency.scaleIns + (policies.backlog?.scaleIns ?? 0),
      controller_minimum_checks: controller.minimumChecks,
      back_to_min_hours: outcome.backToMinAt === undefined ? null : round(outcome.backToMinAt / 3600, 3),
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
