import { AWS_CONSTANTS } from "../awsConstants.js";

/** Settings of a {@link TargetTrackingModel}. */
export interface TargetTrackingOptions {
  /** The metric's target value. */
  target: number;
  minCapacity: number;
  maxCapacity: number;
  /** Seconds between the metric's data points (10 high resolution, 60 standard). */
  periodSeconds: number;
  scaleOutCooldownSeconds: number;
  scaleInCooldownSeconds: number;
}

/**
 * Application Auto Scaling's target tracking on simulated time: given each data point of the
 * metric, it scales out to ceil(capacity × metric ÷ target) once `scaleOutDatapoints` points in a
 * row lie above the target, and in to the same formula once the metric stayed below 90 % of the
 * target for `scaleInDatapoints` minutes. A scale-in waits for its cooldown after the last
 * scale-in; a scale-out may interrupt a scale-in cooldown, and during a scale-out cooldown a
 * further scale-out happens only when it asks for more than the capacity already asked for ("the
 * capacity that has been added by the previous scale out event that initiated the cooldown is
 * calculated as part of the desired capacity for the next scale out",
 * https://docs.aws.amazon.com/autoscaling/application/APIReference/API_TargetTrackingScalingPolicyConfiguration.html).
 *
 * The capacity the formula multiplies is the scalable target's desired capacity (the cautious
 * reading: AWS does not say whether instances still starting count), except during a scale-out
 * cooldown, where it is the capacity before the scale-out that started it. A metric per instance
 * in service therefore asks for too much once a cooldown ends while instances still start: the
 * CDK app's scale-out cooldown outlasts an instance start (`deriveScalingTimes`). At 0 desired
 * capacity target tracking adds nothing (an inference component at 0 copies scales out from zero
 * by step scaling, as AWS documents). The alarms' data points are this model's assumption (see
 * `AWS_CONSTANTS`); the cooldown semantics are documented.
 */
export class TargetTrackingModel {
  readonly #options: TargetTrackingOptions;
  #above = 0;
  #belowSeconds = 0;
  #lastOut = Number.NEGATIVE_INFINITY;
  #lastIn = Number.NEGATIVE_INFINITY;
  /** The desired capacity before the scale-out that started the running cooldown. */
  #cooldownBasis = 0;
  /** Scaling activities: out, in. */
  scaleOuts = 0;
  scaleIns = 0;

  constructor(options: TargetTrackingOptions) {
    this.#options = options;
    this.wanted = options.minCapacity;
  }

  /** The capacity this policy asked for at its last data point (its floor while it scales in). */
  wanted: number;

  /**
   * One data point at `now`: `metric`, the desired count being `desired`. Returns the new desired
   * count, or undefined for no change. `floor`: what the other policies on the same target want;
   * several target-tracking policies scale out when any asks and in only when all do, so a
   * scale-in goes no lower than it.
   */
  observe(now: number, metric: number, desired: number, floor = 0): number | undefined {
    const o = this.#options;
    const c = AWS_CONSTANTS;
    if (metric > o.target) {
      this.#above += 1;
      this.#belowSeconds = 0;
    } else {
      this.#above = 0;
      this.#belowSeconds = metric < 0.9 * o.target ? this.#belowSeconds + o.periodSeconds : 0;
    }
    const cooling = now - this.#lastOut < o.scaleOutCooldownSeconds;
    const basis = cooling ? this.#cooldownBasis : desired;
    const wanted = clamp(Math.ceil((basis * metric) / o.target - 1e-9), o.minCapacity, o.maxCapacity);
    this.wanted = this.#belowSeconds > 0 || wanted > desired ? wanted : desired;
    if (this.#above >= c.scaleOutDatapoints.value && wanted > desired && basis > 0) {
      if (!cooling) this.#cooldownBasis = desired;
      this.#lastOut = now;
      this.scaleOuts += 1;
      return wanted;
    }
    const inTo = Math.max(wanted, floor);
    if (
      this.#belowSeconds >= c.scaleInDatapoints.value * 60 &&
      inTo < desired &&
      now - this.#lastIn >= o.scaleInCooldownSeconds
    ) {
      this.#lastIn = now;
      this.scaleIns += 1;
      return inTo;
    }
    return undefined;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
