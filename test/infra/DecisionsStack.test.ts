import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { deriveDecideCapacity, InfraConfigError, readPolicyCatalogue } from "../../infra/index.js";
import { PROJECT_ROOT, type SynthOptions, synthDecisionsStack } from "./synthDecisionsStack.js";
import { synthVariant } from "./synthVariant.js";
import {
  actionsOf,
  actionsOn,
  JOBS_TABLE_PROPS,
  OUTCOMES_PIPE_PROPS,
  OUTCOMES_TABLE_PROPS,
  only,
  type Resource,
  resourcesOf,
  statementsOf,
  WORK_QUEUE_MAPPING_PROPS,
} from "./templateQueries.js";

const DIGEST = `sha256:${"ab12".repeat(16)}`;
/** The policies in policies/, sorted by file name. */
const POLICY_NAMES = readPolicyCatalogue(join(PROJECT_ROOT, "policies")).map((policy) => policy.name);
const STANDARD_IMAGE = `763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp@${DIGEST}`;

function templateOf(options: SynthOptions = {}): Template {
  const synthesised = synthDecisionsStack(options);
  try {
    return synthesised.template;
  } finally {
    synthesised.dispose();
  }
}

/** The decide function: the one with ENDPOINT_NAME in its environment. */
function decideFunction(template: Template): [string, Resource] {
  return only(template, "AWS::Lambda::Function", {
    Environment: { Variables: Match.objectLike({ ENDPOINT_NAME: Match.anyValue() }) },
  });
}

function ingestFunction(template: Template): [string, Resource] {
  return only(template, "AWS::Lambda::Function", {
    Environment: { Variables: Match.objectLike({ WORK_QUEUE_URL: Match.anyValue() }) },
  });
}

function logicalIdOf(template: Template, type: string, props?: Record<string, unknown>): string {
  return only(template, type, props)[0];
}

describe("DecisionsStack with the default context", () => {
  const { template } = synthVariant("cpu");

  it("reports batch item failures and sizes the decide function for the endpoint at its minimum capacity", () => {
    const [, mapping] = only(template, "AWS::Lambda::EventSourceMapping", WORK_QUEUE_MAPPING_PROPS);
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const [, model] = only(template, "AWS::SageMaker::Model");
    const [, fn] = decideFunction(template);

    assert.deepEqual(mapping.Properties.FunctionResponseTypes, ["ReportBatchItemFailures"]);
    assert.equal(mapping.Properties.BatchSize, 10);
    assert.equal(mapping.Properties.MaximumBatchingWindowInSeconds, 1);
    const minCapacity = target.Properties.MinCapacity as number;
    assert.equal(minCapacity, 1);
    const environment = (model.Properties.PrimaryContainer as { Environment: Record<string, string> })
      .Environment;
    const admitted = minCapacity * (1 + Number(environment.SEMIF_QUEUE_DEPTH));
    assert.equal(admitted, 3, "one CPU instance admits 1 running + 2 waiting");
    const concurrency = (mapping.Properties.ScalingConfig as { MaximumConcurrency: number })
      .MaximumConcurrency;
    const groups = Number(
      (fn.Properties.Environment as { Variables: Record<string, string> }).Variables.MAX_CONCURRENT_GROUPS,
    );
    // 3 slots: 3 invocations × 1 group each; never more calls than the one instance admits.
    assert.equal(concurrency, 3);
    assert.equal(groups, 1);
    assert.ok(concurrency * groups <= admitted);
    assert.deepEqual(
      deriveDecideCapacity({
        minInstances: 1,
        requestsPerInstanceByPool: [3],
        configuredGroupsPerInvocation: 4,
      }),
      { admittedAtMinimum: 3, maxConcurrency: concurrency, groupsPerInvocation: groups, callsInFlight: 3 },
    );
  });

  it("redrives to the DLQ after 5 receives, with a visibility timeout of at least 6 × the decide timeout", () => {
    const [, fn] = decideFunction(template);
    const dlq = logicalIdOf(template, "AWS::SQS::Queue", {
      MessageRetentionPeriod: 14 * 86400,
      RedrivePolicy: Match.absent(),
      VisibilityTimeout: Match.absent(),
      MaximumMessageSize: 1048576,
    });
    const [, queue] = only(template, "AWS::SQS::Queue", { RedrivePolicy: Match.anyValue() });

    assert.deepEqual(queue.Properties.RedrivePolicy, {
      deadLetterTargetArn: { "Fn::GetAtt": [dlq, "Arn"] },
      maxReceiveCount: 5,
    });
    const timeout = fn.Properties.Timeout as number;
    assert.equal(timeout, 120);
    assert.ok((queue.Properties.VisibilityTimeout as number) >= 6 * timeout);
    assert.equal(queue.Properties.VisibilityTimeout, 6 * 120 + 1);
    assert.equal(queue.Properties.SqsManagedSseEnabled, true);
    assert.equal(queue.Properties.MaximumMessageSize, 1048576);
  });

  it("lets the decide function invoke only the decision endpoint and use only the outcomes table, its index and the jobs table", () => {
    const [, fn] = decideFunction(template);
    const endpoint = logicalIdOf(template, "AWS::SageMaker::Endpoint");
    const table = logicalIdOf(template, "AWS::DynamoDB::Table", OUTCOMES_TABLE_PROPS);
    const jobs = logicalIdOf(template, "AWS::DynamoDB::Table", JOBS_TABLE_PROPS);
    const workQueue = logicalIdOf(template, "AWS::SQS::Queue", { RedrivePolicy: Match.anyValue() });
    const statements = statementsOf(template, fn);

    for (const statement of statements) {
      assert.notEqual(statement.Resource, "*", `no wildcard resource: ${JSON.stringify(statement)}`);
      for (const action of actionsOf(statement))
        assert.ok(!action.includes("*"), `no wildcard action: ${action}`);
    }
    const byService = (prefix: string) =>
      statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith(prefix)));
    const sagemaker = byService("sagemaker:");
    assert.equal(sagemaker.length, 1);
    assert.deepEqual(actionsOf(sagemaker[0] as { Action: unknown }), ["sagemaker:InvokeEndpoint"]);
    const endpointArn = JSON.stringify(sagemaker[0]?.Resource);
    assert.ok(
      endpointArn.includes(`":endpoint/"`) &&
        endpointArn.includes(`"Fn::GetAtt":["${endpoint}","EndpointName"]`),
    );
    const dynamodb = byService("dynamodb:");
    const statusIndex = { "Fn::Join": ["", [{ "Fn::GetAtt": [table, "Arn"] }, "/index/by-status"]] };
    assert.deepEqual(actionsOn(dynamodb, { "Fn::GetAtt": [table, "Arn"] }), [
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
    ]);
    assert.deepEqual(actionsOn(dynamodb, statusIndex), ["dynamodb:Query"]);
    assert.deepEqual(actionsOn(dynamodb, { "Fn::GetAtt": [jobs, "Arn"] }), [
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:UpdateItem",
    ]);
    assert.equal(dynamodb.flatMap(resourcesOf).length, 3, "no other table or index");
    for (const statement of byService("sqs:")) {
      assert.deepEqual(statement.Resource, { "Fn::GetAtt": [workQueue, "Arn"] });
    }
    const sends = byService("sqs:").filter((statement) => actionsOf(statement).includes("sqs:SendMessage"));
    // Only to its own queue: a record busy, not failed, is re-queued there as a delayed copy.
    assert.equal(sends.length, 1);
    assert.ok(actionsOf(sends[0] as { Action: unknown }).includes("sqs:GetQueueUrl"));
  });

  it("lets the ingest function send only to the work queue and read only the ingest prefix", () => {
    const [, fn] = ingestFunction(template);
    const workQueue = logicalIdOf(template, "AWS::SQS::Queue", { RedrivePolicy: Match.anyValue() });
    const bucket = logicalIdOf(template, "AWS::S3::Bucket", { VersioningConfiguration: Match.anyValue() });
    const statements = statementsOf(template, fn);

    const sends = statements.filter((statement) => actionsOf(statement).includes("sqs:SendMessage"));
    assert.deepEqual(
      sends.map((statement) => statement.Resource),
      [{ "Fn::GetAtt": [workQueue, "Arn"] }],
    );
    const reads = statements.filter((statement) => actionsOf(statement).includes("s3:GetObject"));
    assert.deepEqual(
      reads.map((statement) => statement.Resource),
      [{ "Fn::Join": ["", [{ "Fn::GetAtt": [bucket, "Arn"] }, "/incoming/*"]] }],
    );
    for (const statement of statements) assert.notEqual(statement.Resource, "*");
  });

  it("runs the adapter network-isolated, with the CPU image and timeouts sized for multi-GB models", () => {
    const models = Object.values(template.findResources("AWS::SageMaker::Model")) as Resource[];
    const [, config] = only(template, "AWS::SageMaker::EndpointConfig");

    assert.equal(models.length, 1);
    for (const model of models) assert.equal(model.Properties.EnableNetworkIsolation, true);
    const container = models[0]?.Properties.PrimaryContainer as Record<string, unknown>;
    assert.match(JSON.stringify(container.ModelDataUrl), /s3:\/\/decisions-models-/);
    assert.deepEqual(container.Environment, {
      SEMIF_GPU_LAYERS: "0",
      SEMIF_CONTEXT_SIZE: "8192",
      SEMIF_MAX_IN_FLIGHT: "1",
      // CPU p95 ~19 s per decision: 2 waiting + 1 running fit the 60 s deadline.
      SEMIF_QUEUE_DEPTH: "2",
      SEMIF_REQUEST_TIMEOUT_MS: "60000",
    });
    const [variant] = config.Properties.ProductionVariants as Array<Record<string, unknown>>;
    assert.equal(variant?.InstanceType, "ml.c6i.8xlarge");
    assert.equal(variant?.InstancePools, undefined);
    assert.equal(variant?.ContainerStartupHealthCheckTimeoutInSeconds, 1800);
    assert.equal(variant?.ModelDataDownloadTimeoutInSeconds, 1800);
  });

  it("scales the instance count on demand: concurrent requests per instance, high resolution", () => {
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const [, policy] = only(template, "AWS::ApplicationAutoScaling::ScalingPolicy");
    const endpoint = logicalIdOf(template, "AWS::SageMaker::Endpoint");

    assert.equal(target.Properties.MinCapacity, 1);
    assert.equal(target.Properties.MaxCapacity, 2);
    assert.equal(target.Properties.ScalableDimension, "sagemaker:variant:DesiredInstanceCount");
    assert.deepEqual(target.Properties.ResourceId, {
      "Fn::Join": ["", ["endpoint/", { "Fn::GetAtt": [endpoint, "EndpointName"] }, "/variant/AllTraffic"]],
    });
    assert.equal(policy.Properties.PolicyType, "TargetTrackingScaling");
    const tracking = policy.Properties.TargetTrackingScalingPolicyConfiguration as Record<string, unknown>;
    // One request per instance at once: an instance with a request waiting asks for another.
    assert.equal(tracking.TargetValue, 1);
    assert.deepEqual(tracking.PredefinedMetricSpecification, {
      PredefinedMetricType: "SageMakerVariantConcurrentRequestsPerModelHighResolution",
    });
    assert.ok((tracking.ScaleInCooldown as number) > (tracking.ScaleOutCooldown as number));
  });

  it("keeps outcomes in an on-demand, encrypted table with PITR, the by-status index and a stream to a bus", () => {
    const [tableId, table] = only(template, "AWS::DynamoDB::Table", OUTCOMES_TABLE_PROPS);
    const [, pipe] = only(template, "AWS::Pipes::Pipe", OUTCOMES_PIPE_PROPS);
    const bus = logicalIdOf(template, "AWS::Events::EventBus");

    assert.equal(table.Properties.BillingMode, "PAY_PER_REQUEST");
    assert.deepEqual(table.Properties.PointInTimeRecoverySpecification, { PointInTimeRecoveryEnabled: true });
    assert.deepEqual(table.Properties.SSESpecification, { SSEEnabled: true });
    assert.deepEqual(table.Properties.StreamSpecification, { StreamViewType: "NEW_AND_OLD_IMAGES" });
    assert.deepEqual(table.Properties.KeySchema, [
      { AttributeName: "policy", KeyType: "HASH" },
      { AttributeName: "id", KeyType: "RANGE" },
    ]);
    const [index] = table.Properties.GlobalSecondaryIndexes as Array<Record<string, unknown>>;
    assert.equal(index?.IndexName, "by-status");
    assert.deepEqual(index?.KeySchema, [
      { AttributeName: "policy_status", KeyType: "HASH" },
      { AttributeName: "updated_at", KeyType: "RANGE" },
    ]);
    assert.deepEqual(pipe.Properties.Source, { "Fn::GetAtt": [tableId, "StreamArn"] });
    assert.deepEqual(pipe.Properties.Target, { "Fn::GetAtt": [bus, "Arn"] });
    template.hasResource("AWS::DynamoDB::Table", {
      Properties: OUTCOMES_TABLE_PROPS,
      DeletionPolicy: "RetainExceptOnCreate",
      UpdateReplacePolicy: "Retain",
    });
    assert.equal(table.Properties.DeletionProtectionEnabled, true);
  });

  it("ingests new JSONL objects under the prefix of an encrypted, TLS-only, private, logged bucket", () => {
    const [bucketId, bucket] = only(template, "AWS::S3::Bucket", {
      VersioningConfiguration: Match.anyValue(),
    });
    const [, notification] = only(template, "Custom::S3BucketNotifications");
    const [, rule] = only(template, "AWS::Events::Rule", {
      EventPattern: Match.objectLike({ source: ["aws.s3"] }),
    });
    const machine = logicalIdOf(template, "AWS::StepFunctions::StateMachine");

    assert.deepEqual(bucket.Properties.PublicAccessBlockConfiguration, {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    assert.ok(bucket.Properties.BucketEncryption !== undefined);
    assert.ok(bucket.Properties.LoggingConfiguration !== undefined);
    template.hasResourceProperties("AWS::S3::BucketPolicy", {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
        ]),
      },
    });
    assert.deepEqual(notification.Properties.NotificationConfiguration, { EventBridgeConfiguration: {} });
    assert.deepEqual(rule.Properties.EventPattern, {
      source: ["aws.s3"],
      "detail-type": ["Object Created"],
      detail: { bucket: { name: [{ Ref: bucketId }] }, object: { key: [{ wildcard: "incoming/*.jsonl" }] } },
    });
    const [target] = rule.Properties.Targets as Array<Record<string, unknown>>;
    assert.deepEqual(target?.Arn, { Ref: machine });
  });

  it("reads a batch file in bounded invocations, invoking ingest again for each pending checkpoint", () => {
    const [, machine] = only(template, "AWS::StepFunctions::StateMachine");
    const [ingestId] = ingestFunction(template);

    const parts = (machine.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1];
    const definition = JSON.parse(
      parts
        .map((part) => (typeof part === "string" ? part : JSON.stringify(JSON.stringify(part)).slice(1, -1)))
        .join(""),
    ) as { StartAt: string; States: Record<string, Record<string, unknown>> };
    assert.equal(definition.StartAt, "FirstCheckpoint");
    const first = String(
      (definition.States.FirstCheckpoint?.Assign as { pending?: string } | undefined)?.pending,
    );
    assert.ok(first.includes('"line": 1, "byteOffset": 0'), first);
    assert.equal(definition.States.MoreToRead?.Default, "Done");
    const loop = definition.States.IngestPending as Record<string, unknown>;
    assert.equal(loop.Next, "MoreToRead");
    assert.equal(loop.Items, "{% $pending %}");
    assert.deepEqual(loop.Assign, { pending: "{% [$states.result.pending] %}" });
    assert.match(JSON.stringify(loop.ItemProcessor), new RegExp(ingestId));
    assert.equal(machine.Properties.TracingConfiguration !== undefined, true);
  });

  it("turns incident events of the configured source and detail-type into work queue messages", () => {
    const [, rule] = only(template, "AWS::Events::Rule", {
      EventPattern: Match.objectLike({ source: ["acme.monitoring"] }),
    });
    const workQueue = logicalIdOf(template, "AWS::SQS::Queue", { RedrivePolicy: Match.anyValue() });

    assert.deepEqual(rule.Properties.EventPattern, {
      source: ["acme.monitoring"],
      "detail-type": ["Incident Opened"],
    });
    const [target] = rule.Properties.Targets as Array<Record<string, unknown>>;
    assert.deepEqual(target?.Arn, { "Fn::GetAtt": [workQueue, "Arn"] });
  });

  it("runs both functions on Node.js 24, arm64, with the policies folder configured", () => {
    for (const [, fn] of [decideFunction(template), ingestFunction(template)]) {
      assert.equal(fn.Properties.Runtime, "nodejs24.x");
      assert.deepEqual(fn.Properties.Architectures, ["arm64"]);
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      assert.equal(variables.POLICY_DIR, "/var/task/policies");
      assert.equal(variables.POWERTOOLS_METRICS_NAMESPACE, "Decisions");
    }
  });

  it("has the decide function give back an item of a policy it has not loaded for 15 minutes (a rollout) before rejecting it", () => {
    const [, fn] = decideFunction(template);
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

    assert.equal(variables.UNKNOWN_POLICY_WAIT_SECONDS, "900");
  });

  it("alarms on dead letters, message age, endpoint errors, function errors and throttles, configuration errors, and each policy's fallback rate", () => {
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")) as Resource[];
    const names = alarms.map((alarm) => (alarm.Properties.MetricName as string | undefined) ?? "math");

    assert.deepEqual(names.sort(), [
      "ApproximateAgeOfOldestMessage",
      // the DLQ, both Pipes' undelivered records, the results writer's unwritten jobs
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ConfigurationErrors",
      // decide, ingest, the jobs monitor
      "Errors",
      "Errors",
      "Errors",
      "ExecutionsFailed",
      "IngestUnsentLines",
      "JobsStalled",
      "Throttles",
      "Throttles",
      // the endpoint's 5xx and ModelError rates, then each policy's fallback rate
      "math",
      "math",
      ...POLICY_NAMES.map(() => "math"),
    ]);
    const unsent = alarms.find((alarm) => alarm.Properties.MetricName === "IngestUnsentLines");
    assert.deepEqual(
      [unsent?.Properties.Namespace, unsent?.Properties.Dimensions, unsent?.Properties.Threshold],
      ["Decisions", [{ Name: "service", Value: "ingest" }], 1],
    );
    // A configuration error (endpoint, table, policy) leaves items undecided: the first one alarms.
    const configuration = alarms.find((alarm) => alarm.Properties.MetricName === "ConfigurationErrors");
    assert.deepEqual(
      [
        configuration?.Properties.Namespace,
        configuration?.Properties.Dimensions,
        configuration?.Properties.Threshold,
        configuration?.Properties.ComparisonOperator,
        configuration?.Properties.Statistic,
        (configuration?.Properties.AlarmActions as unknown[] | undefined)?.length,
      ],
      ["Decisions", [{ Name: "service", Value: "decide" }], 1, "GreaterThanOrEqualToThreshold", "Sum", 1],
    );
    const fallback = alarms.filter((alarm) =>
      JSON.stringify(alarm.Properties.Metrics ?? []).includes('"policy"'),
    );
    for (const [index, policy] of POLICY_NAMES.entries()) {
      const alarm = fallback.find((candidate) =>
        JSON.stringify(candidate.Properties.Metrics).includes(`{"Name":"policy","Value":"${policy}"}`),
      );
      assert.ok(alarm !== undefined, `a fallback-rate alarm for ${policy}`);
      assert.equal(alarm.Properties.Threshold, 20);
      assert.equal(alarm.Properties.ComparisonOperator, "GreaterThanThreshold");
      const metrics = alarm.Properties.Metrics as Array<Record<string, unknown>>;
      const total = `FILL(p${index}_decided, 0) + FILL(p${index}_fallback, 0) + FILL(p${index}_overridden, 0) + FILL(p${index}_rejected, 0)`;
      // No data point (not breaching) below 20 decisions in the window: 1 fallback of 2 is no trend.
      assert.equal(
        metrics.find((metric) => metric.ReturnData !== false)?.Expression,
        `IF((${total}) >= 20, 100 * FILL(p${index}_fallback, 0) / (${total}))`,
      );
      assert.match(JSON.stringify(metrics), /"MetricName":"Decisions"/);
      assert.match(JSON.stringify(metrics), /{"Name":"service","Value":"decide"}/);
    }
    only(template, "AWS::CloudWatch::Dashboard");
  });

  it("deploys no standard endpoint unless asked", () => {
    assert.equal(Object.keys(template.findResources("AWS::SageMaker::Endpoint")).length, 1);
  });
});

describe("DecisionsStack on GPU", () => {
  it("orders the GPU pools by priority, then a CPU pool on the CPU image, with the provisioning timeout", () => {
    const { template } = synthVariant("gpu");
    const [gpuModel] = only(template, "AWS::SageMaker::Model", {
      PrimaryContainer: Match.objectLike({ Environment: Match.objectLike({ SEMIF_GPU_LAYERS: "-1" }) }),
    });
    const [cpuModel] = only(template, "AWS::SageMaker::Model", {
      PrimaryContainer: Match.objectLike({ Environment: Match.objectLike({ SEMIF_GPU_LAYERS: "0" }) }),
    });
    const [, config] = only(template, "AWS::SageMaker::EndpointConfig");

    const [variant] = config.Properties.ProductionVariants as Array<Record<string, unknown>>;
    assert.deepEqual(variant?.ModelName, { "Fn::GetAtt": [gpuModel, "ModelName"] });
    assert.equal(variant?.InstanceType, undefined);
    assert.deepEqual(variant?.InstancePools, [
      { InstanceType: "ml.g6e.xlarge", Priority: 1 },
      { InstanceType: "ml.g6.xlarge", Priority: 2 },
      { InstanceType: "ml.g5.xlarge", Priority: 3 },
      {
        InstanceType: "ml.c6i.8xlarge",
        Priority: 4,
        ModelNameOverride: { "Fn::GetAtt": [cpuModel, "ModelName"] },
      },
    ]);
    assert.equal(variant?.VariantInstanceProvisionTimeoutInSeconds, 1800);
    for (const model of Object.values(template.findResources("AWS::SageMaker::Model")) as Resource[]) {
      assert.equal(model.Properties.EnableNetworkIsolation, true);
    }
  });

  it("gives each pool its own queue depth and deadline, and sizes the function for the slowest pool", () => {
    const { template } = synthVariant("gpu");
    const environmentOf = (layers: string) =>
      (
        only(template, "AWS::SageMaker::Model", {
          PrimaryContainer: Match.objectLike({ Environment: Match.objectLike({ SEMIF_GPU_LAYERS: layers }) }),
        })[1].Properties.PrimaryContainer as { Environment: Record<string, string> }
      ).Environment;
    const [, mapping] = only(template, "AWS::Lambda::EventSourceMapping", WORK_QUEUE_MAPPING_PROPS);
    const [, fn] = decideFunction(template);

    assert.equal(environmentOf("-1").SEMIF_QUEUE_DEPTH, "8");
    assert.equal(environmentOf("-1").SEMIF_REQUEST_TIMEOUT_MS, "30000");
    assert.equal(environmentOf("0").SEMIF_QUEUE_DEPTH, "2");
    assert.equal(environmentOf("0").SEMIF_REQUEST_TIMEOUT_MS, "60000");
    // At minimum capacity the one instance may be the CPU fallback (3 slots): 3 invocations × 1 group.
    assert.deepEqual(mapping.Properties.ScalingConfig, { MaximumConcurrency: 3 });
    assert.equal(
      (fn.Properties.Environment as { Variables: Record<string, string> }).Variables.MAX_CONCURRENT_GROUPS,
      "1",
    );
  });

  it("keeps a given pool order and leaves the CPU pool out when asked, sizing for the GPU pools alone", () => {
    const template = templateOf({
      context: {
        accelerator: "gpu",
        gpuInstancePools: "ml.g5.2xlarge, ml.g6e.2xlarge",
        cpuFallbackPool: "false",
      },
    });
    const [, config] = only(template, "AWS::SageMaker::EndpointConfig");

    const [variant] = config.Properties.ProductionVariants as Array<Record<string, unknown>>;
    assert.deepEqual(variant?.InstancePools, [
      { InstanceType: "ml.g5.2xlarge", Priority: 1 },
      { InstanceType: "ml.g6e.2xlarge", Priority: 2 },
    ]);
    assert.equal(Object.keys(template.findResources("AWS::SageMaker::Model")).length, 1);
    // 9 GPU slots at minimum capacity: 2 invocations × 4 groups.
    const [, mapping] = only(template, "AWS::Lambda::EventSourceMapping", WORK_QUEUE_MAPPING_PROPS);
    const [, fn] = decideFunction(template);
    assert.deepEqual(mapping.Properties.ScalingConfig, { MaximumConcurrency: 2 });
    assert.equal(
      (fn.Properties.Environment as { Variables: Record<string, string> }).Variables.MAX_CONCURRENT_GROUPS,
      "4",
    );
  });
});

describe("DecisionsStack incident rule", () => {
  it("warns at synth when no policy maps the configured incident events", () => {
    const synthesised = synthDecisionsStack({ context: { incidentSource: "other.monitor" } });
    try {
      Annotations.fromStack(synthesised.stack).hasWarning(
        "/Decisions/IncidentRule",
        Match.stringLikeRegexp('no policy maps events of source "other.monitor"'),
      );
    } finally {
      synthesised.dispose();
    }
  });

  it("does not warn when a policy maps them", () => {
    const synthesised = synthDecisionsStack();
    try {
      Annotations.fromStack(synthesised.stack).hasNoWarning("*", Match.stringLikeRegexp("no policy maps"));
    } finally {
      synthesised.dispose();
    }
  });
});

describe("DecisionsStack sizing", () => {
  it("raises the event source's maximum concurrency with the endpoint's minimum instances, not its maximum", () => {
    const template = templateOf({
      context: {
        accelerator: "gpu",
        cpuFallbackPool: "false",
        minInstances: "2",
        maxInstances: "10",
        gpuRequestsPerInstance: "9",
        maxConcurrentGroups: "3",
      },
    });
    const [, mapping] = only(template, "AWS::Lambda::EventSourceMapping", WORK_QUEUE_MAPPING_PROPS);
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const [, fn] = decideFunction(template);

    assert.equal(target.Properties.MaxCapacity, 10);
    // 2 instances × 9 requests ÷ 3 groups
    assert.deepEqual(mapping.Properties.ScalingConfig, { MaximumConcurrency: 6 });
    assert.equal(
      (fn.Properties.Environment as { Variables: Record<string, string> }).Variables.MAX_CONCURRENT_GROUPS,
      "3",
    );
  });

  it("keeps the visibility timeout at 6 × the function timeout when the timeout changes", () => {
    const template = templateOf({ context: { functionTimeoutSeconds: 300, batchingWindowSeconds: 5 } });
    const [, queue] = only(template, "AWS::SQS::Queue", { RedrivePolicy: Match.anyValue() });

    assert.equal(queue.Properties.VisibilityTimeout, 6 * 300 + 5);
  });

  it("refuses a maxReceiveCount below 5 at synth, naming the knob", () => {
    assert.throws(
      () => templateOf({ context: { maxReceiveCount: 4 } }),
      (error: unknown) =>
        error instanceof InfraConfigError &&
        error.problems.some((problem) => problem.knob === "maxReceiveCount") &&
        /maxReceiveCount/.test(error.message),
    );
  });
});

describe("DecisionsStack standard endpoint", () => {
  it("runs the llama.cpp image pinned by digest, network-isolated, pulling from that repository only", () => {
    const { template } = synthVariant("standard");
    const [, model] = only(template, "AWS::SageMaker::Model", {
      PrimaryContainer: Match.objectLike({ Image: STANDARD_IMAGE }),
    });

    assert.equal(model.Properties.EnableNetworkIsolation, true);
    assert.equal(Object.keys(template.findResources("AWS::SageMaker::Endpoint")).length, 2);
    // The pull statement (with minimizePolicies the actions may be merged and sorted).
    const repository = JSON.stringify({
      "Fn::Join": [
        "",
        ["arn:", { Ref: "AWS::Partition" }, ":ecr:us-east-1:763104351884:repository/llama-cpp"],
      ],
    });
    const pulls = (Object.values(template.findResources("AWS::IAM::Policy")) as Resource[])
      .flatMap(
        (policy) =>
          (policy.Properties.PolicyDocument as { Statement: Array<{ Action: unknown; Resource: unknown }> })
            .Statement,
      )
      .filter((statement) => actionsOf(statement).includes("ecr:BatchGetImage"))
      .filter((statement) => JSON.stringify(statement.Resource).includes(repository));
    assert.equal(pulls.length, 1);
    assert.deepEqual(actionsOf(pulls[0] as { Action: unknown }).sort(), [
      "ecr:BatchCheckLayerAvailability",
      "ecr:BatchGetImage",
      "ecr:GetDownloadUrlForLayer",
    ]);
    assert.equal(JSON.stringify(pulls[0]?.Resource), repository);
  });

  it("refuses a mutable tag at synth with an error naming standardImage", () => {
    const tagged = "763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp:server-sagemaker-cpu-v1";

    assert.throws(
      () => templateOf({ context: { standardEndpoint: "true", standardImage: tagged } }),
      (error: unknown) =>
        error instanceof InfraConfigError &&
        error.problems.length === 1 &&
        error.problems[0]?.knob === "standardImage" &&
        /not pinned by digest/.test(error.message),
    );
  });

  it("requires an image when the standard endpoint is on", () => {
    assert.throws(
      () => templateOf({ context: { standardEndpoint: true } }),
      (error: unknown) => error instanceof InfraConfigError && error.problems[0]?.knob === "standardImage",
    );
  });
});
