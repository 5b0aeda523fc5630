/**
 * The lowest and highest `MaximumConcurrency` a Lambda SQS event source mapping accepts
 * (https://docs.aws.amazon.com/lambda/latest/dg/API_ScalingConfig.html): written once for the CDK
 * app's sizing, the capacity controller's plan and the controller's settings.
 */
export const EVENT_SOURCE_CONCURRENCY = { min: 2, max: 1000 } as const;
