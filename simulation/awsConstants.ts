/** One constant of AWS's behaviour the model uses: its value, what it is and where AWS documents it. */
export interface AwsConstant {
  value: number;
  what: string;
  /** The AWS documentation page it is read from. */
  source: string;
  /** Set when the page gives no number and the value is this model's assumption. */
  assumption?: string;
}

/**
 * The AWS constants of the simulation, each with its documented source. Values marked with an
 * `assumption` are not documented as numbers: they are this model's choice, stated as such (and
 * flags of `decisions simulate` where they matter).
 */
export const AWS_CONSTANTS = {
  sqsInitialConcurrency: {
    value: 5,
    what: "concurrent batches an SQS event source (standard queue) starts with when messages are available",
    source: "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html",
  },
  sqsConcurrencyStepPerMinute: {
    value: 300,
    what: "concurrent invocations an SQS event source adds per minute while messages remain",
    source: "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html",
  },
  sqsMaxBatches: {
    value: 1000,
    what: "batches one SQS event source mapping processes at once, at most",
    source: "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html",
  },
  maximumConcurrencyMin: {
    value: 2,
    what: "lowest MaximumConcurrency of an SQS event source mapping",
    source: "https://docs.aws.amazon.com/lambda/latest/dg/API_ScalingConfig.html",
  },
  maximumConcurrencyMax: {
    value: 1000,
    what: "highest MaximumConcurrency of an SQS event source mapping",
    source: "https://docs.aws.amazon.com/lambda/latest/dg/API_ScalingConfig.html",
  },
  batchingWindowMaxSeconds: {
    value: 300,
    what: "longest MaximumBatchingWindowInSeconds (a batch is sent when full or when the window ends)",
    source:
      "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/lambda/aws.sdk.kotlin.services.lambda.model/-get-event-source-mapping-response/maximum-batching-window-in-seconds.html",
  },
  sqsMaxDelaySeconds: {
    value: 900,
    what: "longest DelaySeconds of a message (the delayed re-queue of busy records)",
    source:
      "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-delay-queues.html",
  },
  scalingCooldownDefaultSeconds: {
    value: 300,
    what: "default scale-in and scale-out cooldown of a target tracking policy on a SageMaker variant (the CDK app sets the instance start + 60 s out, 900 s in: `deriveScalingTimes`)",
    source:
      "https://docs.aws.amazon.com/autoscaling/application/APIReference/API_TargetTrackingScalingPolicyConfiguration.html",
  },
  highResolutionMetricPeriodSeconds: {
    value: 10,
    what: "period of ConcurrentRequestsPerModel (high resolution); standard metrics such as a published custom metric: 60 s",
    source: "https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-add-code-define.html",
  },
  scaleOutDatapoints: {
    value: 3,
    what: "consecutive data points above the target before a target tracking policy scales out",
    source:
      "https://docs.aws.amazon.com/autoscaling/application/userguide/target-tracking-scaling-policy-overview.html",
    assumption:
      "AWS documents that target tracking scales out 'as fast as it can' and in 'more gradually' through alarms it manages, without the alarms' data points; 3 out, 15 in (of 60 s; the high-resolution metric scales in at the standard metrics' pace) is this model's choice",
  },
  scaleInDatapoints: {
    value: 15,
    what: "consecutive 60 s data points below 90 % of the target before a target tracking policy scales in",
    source:
      "https://docs.aws.amazon.com/autoscaling/application/userguide/target-tracking-scaling-policy-overview.html",
    assumption: "see scaleOutDatapoints; the 90 % is the overview's 'usually more than 10 % below'",
  },
  instanceStartSeconds: {
    value: 360,
    what: "from a scale-out decision to a new endpoint instance InService (launch, image pull, model download, /ping)",
    source: "https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-zero-instances.html",
    assumption:
      "AWS says provisioning 'takes several minutes'; 6 minutes is this model's choice (flag --instance-start-s)",
  },
  instanceStopSeconds: {
    value: 120,
    what: "from a scale-in decision to the instance leaving the endpoint; it takes no new requests and finishes those it holds",
    source: "https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-policy.html",
    assumption: "not documented as a number; 2 minutes, longer than the controller's period of 1 minute",
  },
  transactionWriteUnitsPerItem: {
    value: 2,
    what: "write capacity units a transactional write of an item up to 1 KB consumes",
    source: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html",
  },
  partitionWriteUnitsPerSecond: {
    value: 1000,
    what: "write capacity units per second one partition (so one item) sustains",
    source: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html",
  },
} as const satisfies Record<string, AwsConstant>;
