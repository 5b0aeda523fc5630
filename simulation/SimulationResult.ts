import type { CapacityLayout, CapacityMode } from "./SimulationInputs.js";

/** One point of the timeline (every `sample_s` simulated seconds). */
export interface TimelinePoint {
  /** Simulated seconds since the job's upload (negative during `--idle-hours`). */
  t: number;
  /** Instances InService, paid for (starting and draining included), running a request; all pools. */
  in_service: number;
  billed: number;
  busy: number;
  /** Visible messages of the bulk queue. */
  backlog: number;
  /** Endpoint calls out (admitted or waiting for the answer). */
  calls: number;
  /** The bulk event source's MaximumConcurrency. */
  max_concurrency: number;
}

/** What a simulation run reports (snake_case: it is printed as JSON). */
export interface SimulationResult {
  capacity: CapacityMode;
  layout: CapacityLayout;
  lanes: boolean;
  lines: number;
  /** Hours with no work before the upload. */
  idle_hours: number;
  /** The bulk lane's drain goal the capacity rule planned with (follow mode). */
  bulk_drain_goal_minutes: number;
  /** Whether the job ended within `max_hours`. */
  finished: boolean;
  /** From the upload to the job's last line ended, hours. */
  job_hours: number;
  /** Whether the job ended within the drain goal of its upload (`job_hours × 60 ≤ goal`). */
  met_goal: boolean;
  /**
   * Whether `maxInstances` allows the goal: the capacity rule, given the whole job at the upload
   * on the instances at minimum, wants no more than `maxInstances` (false: it is capped).
   */
  goal_within_max: boolean;
  /**
   * Instance-hours paid from the start (the idle hours included) until every pool is back at its
   * minimum after the job.
   */
  instance_hours: number;
  /** Of them, the instances that serve bulk work: all with `shared`, the bulk pool's with `lanes-from-zero`. */
  bulk_instance_hours: number;
  /** `instance_hours × --instance-price`, or null without a price. */
  cost: number | null;
  /** Endpoint-busy hours: Σ request service time ÷ 3600 (what a perfectly packed fleet would use). */
  busy_instance_hours: number;
  /** `instance_hours ÷ busy_instance_hours`; null when nothing was busy. */
  paid_over_busy: number | null;
  peak_busy_instances: number;
  /** Peak instances InService at once, all pools together. */
  peak_in_service_instances: number;
  /** Calls admitted by the endpoint at once (running + waiting), at most. */
  peak_calls_in_flight: number;
  /** 503s ÷ endpoint calls (attempts). */
  refused_share: number;
  endpoint_calls: number;
  refused_calls: number;
  retries: number;
  /** Lines sent back as delayed copies for capacity (one line may be counted more than once). */
  requeued_lines: number;
  decided_lines: number;
  dead_lettered_lines: number;
  /** Lines per second from the first line ended to the last. */
  lines_per_s: number;
  /** First line ended, seconds after the upload. */
  first_line_s: number;
  /**
   * `lanes-from-zero`: the stated bound of the first line's end when the bulk pool starts at 0
   * copies (`deriveScalingTimes`: the no-capacity alarm, the instance start, the busy re-queue's
   * longest delay); null with `shared`.
   */
  stated_first_line_s: number | null;
  /** The instance start time the run assumed (`--instance-start-s`). */
  instance_start_s: number;
  interactive: {
    items: number;
    p50_s: number | null;
    p95_s: number | null;
    max_s: number | null;
    refused_calls: number;
  };
  /** The decide functions' sizing as deployed (bulk lane; follow: at the start). */
  sizing: { max_concurrency: number; groups_per_invocation: number; calls_in_flight: number };
  /**
   * Scaling activities (all policies), the controller's checks that kept the minimum concurrency
   * (the endpoint Updating; follow mode only), and when the endpoint was back at its minimum.
   */
  scaling: {
    scale_outs: number;
    scale_ins: number;
    /** Step scaling activities that took a pool out of zero copies (`lanes-from-zero`). */
    from_zero_steps: number;
    controller_minimum_checks: number;
    back_to_min_hours: number | null;
  };
  /** Events the loop ran (a measure of the run's own cost). */
  events: number;
  timeline: TimelinePoint[];
}
