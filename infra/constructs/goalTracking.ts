import type { Duration } from "aws-cdk-lib";
import type { CfnScalingPolicy } from "aws-cdk-lib/aws-applicationautoscaling";
import { CAPACITY_METRICS } from "../../contract/index.js";

/** Where the capacity controller publishes `GoalCapacityRatio`, and the scaling's cooldowns. */
export interface GoalScaling {
  metricsNamespace: string;
  service: string;
  scaleOutCooldown: Duration;
  scaleInCooldown: Duration;
}

/**
 * Target tracking at 1 of the capacity controller's `GoalCapacityRatio`, read with exactly the
 * dimensions the controller publishes it with: Powertools' `service`, then `dimension` (the
 * endpoint's or a component's name). Used by the endpoint's goal policy (`shared`) and by each
 * lane's component (`lanes-from-zero`).
 */
export function goalTrackingConfiguration(
  goalScaling: GoalScaling,
  dimension: { name: string; value: string },
): CfnScalingPolicy.TargetTrackingScalingPolicyConfigurationProperty {
  return {
    targetValue: 1,
    customizedMetricSpecification: {
      namespace: goalScaling.metricsNamespace,
      metricName: CAPACITY_METRICS.goalCapacityRatio,
      dimensions: [{ name: "service", value: goalScaling.service }, dimension],
      statistic: "Average",
    },
    scaleOutCooldown: goalScaling.scaleOutCooldown.toSeconds(),
    scaleInCooldown: goalScaling.scaleInCooldown.toSeconds(),
  };
}
