import type { Duration } from "aws-cdk-lib";
import { Metric } from "aws-cdk-lib/aws-cloudwatch";

/** Which SageMaker endpoint variant a metric is of. */
export interface SageMakerVariant {
  readonly endpointName: string;
  readonly variantName: string;
}

/**
 * One of an endpoint variant's own CloudWatch metrics (namespace `AWS/SageMaker`, dimensions
 * `EndpointName` and `VariantName`: Invocations, Invocation5XXErrors, InvocationModelErrors,
 * ModelLatency in microseconds, …; https://docs.aws.amazon.com/sagemaker/latest/dg/monitoring-cloudwatch.html).
 * The one place the dashboard, the endpoint's alarms and the shadow monitoring build them.
 */
export function sageMakerVariantMetric(
  variant: SageMakerVariant,
  metricName: string,
  options: { statistic: string; period: Duration; label?: string },
): Metric {
  return new Metric({
    namespace: "AWS/SageMaker",
    metricName,
    dimensionsMap: { EndpointName: variant.endpointName, VariantName: variant.variantName },
    statistic: options.statistic,
    period: options.period,
    ...(options.label === undefined ? {} : { label: options.label }),
  });
}
