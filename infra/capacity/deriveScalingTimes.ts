/**
 * How often the capacity controller publishes its metrics: EventBridge's shortest rate
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html), and
 * the period of the standard-resolution metric the goal scaling policy tracks.
 */
export const CAPACITY_CHECK_SECONDS = 60;

/**
 * The scale-in cooldown of the goal scaling policy: after one scale-in, another waits this long.
 * A scale-out is never held back by it ("if another alarm triggers a scale out policy during the
 * cooldown period after a scale-in, application auto scaling scales out your scalable target
 * immediately",
 * https://docs.aws.amazon.com/autoscaling/application/APIReference/API_TargetTrackingScalingPolicyConfiguration.html).
 */
export const SCALE_IN_COOLDOWN_SECONDS = 900;

/**
 * The NoCapacityInvocationFailures alarm of a component scaled from zero: one 60-second period,
 * one data point (AWS's example, https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html).
 */
export const NO_CAPACITY_ALARM_PERIOD_SECONDS = 60;

/**
 * The longest delay of a busy record's re-queued copy (`BusyRecordRequeuer`: full jitter below
 * min(60 s, 2 s · 2^(n−1))): a line refused for want of capacity comes back within it.
 */
export const BUSY_REQUEUE_MAX_SECONDS = 60;

/** What {@link deriveScalingTimes} derives. */
export interface ScalingTimes {
  /**
   * Seconds after a scale-out before target tracking scales out again on the capacity in service:
   * an instance start and one more data point, so that no cooldown ends while an instance it
   * added still starts.
   */
  scaleOutCooldownSeconds: number;
  scaleInCooldownSeconds: number;
  /**
   * The stated bound of the first line's end after bulk capacity scaled to zero (`lanes-from-zero`):
   * the no-capacity alarm's period and its evaluation (2 periods), the instance start, and the
   * busy re-queue's longest delay.
   */
  fromZeroFirstLineSeconds: number;
}

/**
 * The scaling times the CDK app deploys and the simulation runs, from the stated instance start
 * time. Application Auto Scaling documents that during a scale-out cooldown "the capacity that
 * has been added by the previous scale out event that initiated the cooldown is calculated as part
 * of the desired capacity for the next scale out"; whether instances still starting count once it
 * ends is not documented. The goal metric is per instance *in service*, so a cooldown that ended
 * while instances still start could ask for them twice: the cooldown outlasts a start and the next
 * data point. A larger scale-out still happens during it (a growing backlog keeps buying).
 *
 * @example
 * ```ts
 * deriveScalingTimes({ instanceStartSeconds: 360 });
 * // { scaleOutCooldownSeconds: 420, scaleInCooldownSeconds: 900, fromZeroFirstLineSeconds: 540 }
 * ```
 */
export function deriveScalingTimes(inputs: { instanceStartSeconds: number }): ScalingTimes {
  return {
    scaleOutCooldownSeconds: inputs.instanceStartSeconds + CAPACITY_CHECK_SECONDS,
    scaleInCooldownSeconds: SCALE_IN_COOLDOWN_SECONDS,
    fromZeroFirstLineSeconds:
      2 * NO_CAPACITY_ALARM_PERIOD_SECONDS + inputs.instanceStartSeconds + BUSY_REQUEUE_MAX_SECONDS,
  };
}
