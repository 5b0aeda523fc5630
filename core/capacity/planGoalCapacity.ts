/**
 * How long the rule takes to act on what it sees, **assumptions**: AWS documents that target
 * tracking scales out "as fast as it can" and in "more gradually"
 * (https://docs.aws.amazon.com/autoscaling/application/userguide/target-tracking-scaling-policy-overview.html),
 * through alarms it creates and manages, without giving their data points. This project assumes 3
 * one-minute data points above the target before a scale-out (and the controller's own minute
 * before the first: `out`, 4 minutes) and 15 below it before a scale-in (`in`)
 * (`simulation/awsConstants.ts` models the same data points; a test keeps them equal).
 */
export const SCALING_REACTION_SECONDS = { out: 4 * 60, in: 15 * 60 } as const;

/**
 * What the tail keeps to spare before a scale-in acts: two of the controller's minutes (the
 * seconds per line are an estimate; a line left when the instances go is finished by those that stay).
 */
export const TAIL_SPARE_SECONDS = 2 * 60;

/** One lane's demand on the instances: its backlog and the time it must drain in. */
export interface LaneDemand {
  /** Visible messages (`ApproximateNumberOfMessages`). */
  backlog: number;
  /** The lane's goal: its backlog drains within this many seconds. */
  goalSeconds: number;
}

/** Inputs of {@link planGoalCapacity}. */
export interface GoalCapacityInputs {
  /** Instances (or copies) serving now: Σ min(current, desired). */
  inService: number;
  /**
   * The lanes this capacity serves, the one served first first (the adapter starts waiting
   * interactive calls before bulk ones): each lane's goal is checked on its backlog and those before it.
   */
  demands: readonly LaneDemand[];
  /** Seconds one instance takes per line (a stated assumption, or measured). */
  secondsPerLine: number;
  /** Seconds from a scale-out to a new instance in service (a stated assumption). */
  instanceStartSeconds: number;
  /** The most instances the scalable target allows. */
  maxInstances: number;
}

/** Why {@link planGoalCapacity} wants what it wants. */
export type GoalCapacityReason =
  /** No backlog. */
  | "idle"
  /** The instances in service drain the backlog well before a scale-in could act: give them back. */
  | "tail"
  /** The instances in service drain the backlog within every goal: buy nothing. */
  | "within-goal"
  /** More instances are needed to meet a goal. */
  | "buy"
  /** The goal needs more than `maxInstances`: as many as allowed. */
  | "capped";

/** What {@link planGoalCapacity} decided. */
export interface GoalCapacityPlan {
  /** Instances the goals need (0: none beyond the scalable target's minimum). */
  wanted: number;
  /**
   * The metric the goal scaling policy tracks, target 1: `(wanted − ½) ÷ max(1, in service)` when
   * buying (target tracking asks for `⌈capacity × metric ÷ target⌉`: `wanted` exactly, the half
   * keeping rounding off the edge), 1 when the instances in service suffice, 0 in the tail or idle.
   */
  ratio: number;
  /** The backlog's work: Σ backlog × seconds per line (instance-seconds). */
  workSeconds: number;
  /** Seconds the instances in service take to drain it (Infinity with none in service and work). */
  drainSeconds: number;
  reason: GoalCapacityReason;
}

/**
 * The capacity rule: instances are bought for a stated goal, never for a backlog the instances
 * in service drain within it. With `W` the work of the backlog (its lines × seconds per line),
 * `n` the instances in service, `G` a lane's goal, `S` the instance start time, `R` the scale-out
 * reaction and `R_in` the scale-in reaction ({@link SCALING_REACTION_SECONDS}), and `G' = G − R`
 * (what is left of the goal when a decision acts: the backlog seen now may be `R` old by then, and
 * a goal judged afresh each minute must not slide with it):
 *
 * - `W = 0`: **idle**, nothing is wanted (the scalable target's minimum stays);
 * - `W ≤ n × (R_in − 2 min)`: the **tail**: the instances in service drain it before a scale-in
 *   could act (two minutes to spare, {@link TAIL_SPARE_SECONDS}: the seconds per line are an
 *   estimate), so the capacity is given back as it ends;
 * - `W ≤ n × G'` for every lane (a lane's `W` counts its backlog and those served before it):
 *   **within the goal**, buy nothing: `wanted = n`;
 * - otherwise **buy**: a new instance works `H = G' − S` seconds of the goal (`G'`, or `G`, when
 *   that is not positive: a goal shorter than a start cannot be met by new instances, which are
 *   then bought in proportion to the work), so `wanted = n + ⌈(W − n × G') ÷ H⌉`, the largest over
 *   the lanes, and never more than `maxInstances` (**capped**).
 *
 * Pure: the capacity controller publishes its `ratio` each minute, and the simulation runs it.
 *
 * @example
 * ```ts
 * // 10,000 lines at 0.312 s on 1 instance: 52 minutes of work, within a 60-minute goal
 * planGoalCapacity({ inService: 1, demands: [{ backlog: 10_000, goalSeconds: 3600 }],
 *   secondsPerLine: 0.312, instanceStartSeconds: 360, maxInstances: 20 }).wanted; // 1
 * ```
 */
export function planGoalCapacity(inputs: GoalCapacityInputs): GoalCapacityPlan {
  const n = Math.max(0, inputs.inService);
  let cumulative = 0;
  let wanted = n;
  let workSeconds = 0;
  for (const demand of inputs.demands) {
    cumulative += Math.max(0, demand.backlog) * inputs.secondsPerLine;
    workSeconds = cumulative;
    const reach =
      demand.goalSeconds - SCALING_REACTION_SECONDS.out > 0
        ? demand.goalSeconds - SCALING_REACTION_SECONDS.out
        : demand.goalSeconds;
    if (cumulative <= n * reach) continue;
    const newInstanceSeconds = reach - inputs.instanceStartSeconds;
    const horizon = newInstanceSeconds > 0 ? newInstanceSeconds : reach;
    wanted = Math.max(wanted, n + Math.ceil((cumulative - n * reach) / horizon));
  }
  const drainSeconds = workSeconds === 0 ? 0 : n === 0 ? Number.POSITIVE_INFINITY : workSeconds / n;
  if (workSeconds === 0) return { wanted: 0, ratio: 0, workSeconds, drainSeconds, reason: "idle" };
  if (workSeconds <= n * (SCALING_REACTION_SECONDS.in - TAIL_SPARE_SECONDS)) {
    return { wanted: 0, ratio: 0, workSeconds, drainSeconds, reason: "tail" };
  }
  if (wanted <= n) return { wanted: n, ratio: 1, workSeconds, drainSeconds, reason: "within-goal" };
  const capped = Math.min(inputs.maxInstances, wanted);
  return {
    wanted: capped,
    // With none in service (a pool at 0 copies, the first one starting), target tracking cannot
    // scale out from zero and one copy already asked for reads as enough: at least 1, never below.
    ratio: capped <= n ? 1 : Math.max(1, (capped - 0.5) / Math.max(1, n)),
    workSeconds,
    drainSeconds,
    reason: capped < wanted ? "capped" : "buy",
  };
}
