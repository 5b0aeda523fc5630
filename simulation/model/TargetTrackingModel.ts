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
 * target for `scaleInDatapoints` minutes, each no sooner than its cooldown after the last activity
 * of its kind (a scale-out may interrupt a scale-in cooldown). The alarms' data points are this
 * model's assumption (see `AWS_CONSTANTS`); the cooldown semantics are documented.
 */
export class TargetTrackingModel {
  readonly #options: TargetTrackingOptions;
  #above = 0;
  #belowSeconds = 0;
  #lastOut = Number.NEGATIVE_INFINITY;
  #lastIn = Number.NEGATIVE_INFINITY;
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
   * One data point at `now`: `metric` per instance over `capacity` InService instances, the
   * desired count being `desired`. Returns the new desired count, or undefined for no change.
   * `floor`: what the other policies on the same target want; several target-tracking policies
   * scale out when any asks and in only when all do, so a scale-in goes no lower than it.
   */
  observe(now: number, metric: number, capacity: number, desired: number, floor = 0): number | undefined {
    const o = this.#options;
    const c = AWS_CONSTANTS;
    if (metric > o.target) {
      this.#above += 1;
      this.#belowSeconds = 0;
    } else {
      this.#above = 0;
      this.#belowSeconds = metric < 0.9 * o.target ? this.#belowSeconds + o.periodSeconds : 0;
    }
    const wanted = clamp(
      Math.ceil((Math.max(capacity, 1) * metric) / o.target),
      o.minCapacity,
      o.maxCapacity,
    );
    this.wanted = this.#belowSeconds > 0 || wanted > desired ? wanted : desired;
    if (
      this.#above >= c.scaleOutDatapoints.value &&
      wanted > desired &&
      now - this.#lastOut >= o.scaleOutCooldownSeconds
    ) {
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
