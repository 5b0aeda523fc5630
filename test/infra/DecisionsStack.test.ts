import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { InvokeEndpointCommand, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { Deadline } from "../../core/common/Deadline.js";
import { PolicySet } from "../../core/policy/index.js";
import { createDecideDeps } from "../../functions/decide/createDecideDeps.js";
import { readDecideConfig } from "../../functions/decide/readDecideConfig.js";
import { deriveDecideCapacity, InfraConfigError, readPolicyCatalogue } from "../../infra/index.js";
import { LOCAL_CREDENTIALS } from "../../local/index.js";
import { PROJECT_ROOT, type SynthOptions, synthDecisionsStack } from "./synthDecisionsStack.js";
import { synthVariant } from "./synthVariant.js";
import {
  actionsOf,
  actionsOn,
  JOBS_TABLE_PROPS,
  laneResources,
  OUTCOMES_PIPE_PROPS,
  OUTCOMES_TABLE_PROPS,
  only,
  type Resource,
  resourcesOf,
  statementsOf,
} from "./templateQueries.js";

const LANES = ["interactive", "bulk"] as const;

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

/** A lane's event source: `[MaximumConcurrency, MAX_CONCURRENT_GROUPS]`. */
function sizingOf(template: Template, lane: string): [number, number] {
  const { mapping, variables } = laneResources(template, lane);
  return [
    (mapping.Properties.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency,
    Number(variables.MAX_CONCURRENT_GROUPS),
  ];
}

/** The decide functions' environment as strings (references, resolved at deploy, stand in as text). */
function environmentAsText(variables: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      typeof value === "string" ? value : `ref-${name}`,
    ]),
  );
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
  const { template, stack } = synthVariant("cpu");

  it("runs one decide function per lane, each on its own queue, sized for its share of the endpoint at minimum capacity", () => {
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const [, model] = only(template, "AWS::SageMaker::Model");
    const interactive = laneResources(template, "interactive");
    const bulk = laneResources(template, "bulk");

    const minCapacity = target.Properties.MinCapacity as number;
    assert.equal(minCapacity, 1);
    const environment = (model.Properties.PrimaryContainer as { Environment: Record<string, string> })
      .Environment;
    const admitted = minCapacity * (1 + Number(environment.SEMIF_QUEUE_DEPTH));
    const reserved = minCapacity * Number(environment.SEMIF_INTERACTIVE_RESERVE);
    assert.deepEqual(
      [admitted, reserved],
      [4, 2],
      "one CPU instance admits 1 running + 3 waiting, 2 of them kept for interactive calls",
    );
    assert.notEqual(interactive.queueId, bulk.queueId);
    assert.notEqual(interactive.deadLetterQueueId, bulk.deadLetterQueueId);
    assert.match(interactive.queueId, /^InteractiveWorkQueue[0-9A-F]{8}$/);
    assert.match(bulk.queueId, /^BulkWorkQueue[0-9A-F]{8}$/);
    assert.match(interactive.deadLetterQueueId, /^InteractiveWorkQueueDeadLetters/);
    assert.match(bulk.deadLetterQueueId, /^BulkWorkQueueDeadLetters/);
    assert.match(interactive.functionId, /^InteractiveDecideHandler/);
    assert.match(bulk.functionId, /^BulkDecideHandler/);
    for (const lane of [interactive, bulk]) {
      assert.deepEqual(lane.mapping.Properties.FunctionResponseTypes, ["ReportBatchItemFailures"]);
      assert.equal(lane.mapping.Properties.MaximumBatchingWindowInSeconds, 1);
    }
    // Bulk takes the knob's 10; interactive no more than its 1 group per invocation (laneBatchSize).
    assert.equal(bulk.mapping.Properties.BatchSize, 10);
    assert.equal(interactive.mapping.Properties.BatchSize, 1);
    // Interactive: the 2 reserved places, 2 invocations × 1 group; bulk: the 4 − 2 others, the same.
    const [interactiveConcurrency, interactiveGroups] = sizingOf(template, "interactive");
    const [bulkConcurrency, bulkGroups] = sizingOf(template, "bulk");
    assert.deepEqual([interactiveConcurrency, interactiveGroups], [2, 1]);
    assert.deepEqual([bulkConcurrency, bulkGroups], [2, 1]);
    assert.ok(interactiveConcurrency * interactiveGroups <= reserved);
    assert.ok(interactiveConcurrency * interactiveGroups + bulkConcurrency * bulkGroups <= admitted);
    assert.deepEqual(
      deriveDecideCapacity({
        minInstances: 1,
        requestsPerInstanceByPool: [4],
        interactiveReservePerInstance: 2,
        configuredGroupsPerInvocation: 4,
      }),
      stack.decideCapacity,
    );
  });

  it("sets each decide function's LANE, which its endpoint calls name in CustomAttributes", async () => {
    for (const lane of LANES) {
      const { variables } = laneResources(template, lane);
      const config = readDecideConfig(environmentAsText(variables), "/unused");
      const sent: InvokeEndpointCommand[] = [];
      const sagemakerRuntime = {
        send: async (command: InvokeEndpointCommand) => {
          sent.push(command);
          return { Body: new TextEncoder().encode("{}"), $metadata: {} };
        },
      } as unknown as SageMakerRuntimeClient;
      // Never called: the deps are built only to reach the endpoint client.
      const dynamodb = new DynamoDBClient({
        endpoint: "http://127.0.0.1:9",
        region: "us-east-1",
        credentials: LOCAL_CREDENTIALS,
      });
      try {
        const deps = await createDecideDeps(config, {
          sagemakerRuntime,
          dynamodb,
          policies: new PolicySet([]),
          logger: new Logger({ logLevel: "SILENT" }),
          metrics: new Metrics({ namespace: "DecisionsTest", serviceName: "decide" }),
        });

        await deps.endpoint.invoke("{}", { deadline: new Deadline(Date.now() + 30_000) });

        assert.equal(variables.LANE, lane);
        assert.equal(config.lane, lane);
        assert.deepEqual(
          sent.map((command) => command.input.CustomAttributes),
          [`lane=${lane}`],
        );
      } finally {
        dynamodb.destroy();
      }
    }
  });

  it("redrives each lane's queue to its own DLQ after 5 receives, with a visibility timeout of at least 6 × the decide timeout", () => {
    for (const lane of LANES) {
      const { fn, queue, deadLetterQueueId } = laneResources(template, lane);
      const dlq = template.toJSON().Resources[deadLetterQueueId] as Resource;

      assert.deepEqual(queue.Properties.RedrivePolicy, {
        deadLetterTargetArn: { "Fn::GetAtt": [deadLetterQueueId, "Arn"] },
        maxReceiveCount: 5,
      });
      assert.deepEqual(
        [
          dlq.Properties.MessageRetentionPeriod,
          dlq.Properties.RedrivePolicy,
          dlq.Properties.SqsManagedSseEnabled,
        ],
        [14 * 86400, undefined, true],
      );
      const timeout = fn.Properties.Timeout as number;
      assert.equal(timeout, 120);
      assert.ok((queue.Properties.VisibilityTimeout as number) >= 6 * timeout);
      assert.equal(queue.Properties.VisibilityTimeout, 6 * 120 + 1);
      assert.equal(queue.Properties.SqsManagedSseEnabled, true);
      assert.equal(queue.Properties.MaximumMessageSize, 1048576);
    }
    assert.equal(
      Object.keys(
        template.findResources("AWS::SQS::Queue", { Properties: { RedrivePolicy: Match.anyValue() } }),
      ).length,
      2,
    );
  });

  for (const lane of LANES) {
    it(`lets the ${lane} decide function invoke only the decision endpoint, use only the outcomes table, its index and the jobs table, and send only to its own queue`, () => {
      const { fn, queueId: workQueue } = laneResources(template, lane);
      const endpoint = logicalIdOf(template, "AWS::SageMaker::Endpoint");
      const table = logicalIdOf(template, "AWS::DynamoDB::Table", OUTCOMES_TABLE_PROPS);
      const jobs = logicalIdOf(template, "AWS::DynamoDB::Table", JOBS_TABLE_PROPS);
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
      const other = laneResources(template, lane === "interactive" ? "bulk" : "interactive");
      assert.doesNotMatch(
        JSON.stringify(statements),
        new RegExp(`"${other.queueId}"|"${other.deadLetterQueueId}"`),
      );
    });
  }

  it("lets the ingest function send only to the bulk lane's queue (every job line travels in bulk) and read only the ingest prefix", () => {
    const [, fn] = ingestFunction(template);
    const workQueue = laneResources(template, "bulk").queueId;
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
    assert.deepEqual(
      (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.WORK_QUEUE_URL,
      {
        Ref: workQueue,
      },
    );
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
      // 1 running + 3 waiting, 2 of them for interactive calls only: 2 places per lane.
      SEMIF_QUEUE_DEPTH: "3",
      SEMIF_INTERACTIVE_RESERVE: "2",
      SEMIF_REQUEST_TIMEOUT_MS: "55000",
    });
    const [variant] = config.Properties.ProductionVariants as Array<Record<string, unknown>>;
    assert.equal(variant?.InstanceType, "ml.c6i.8xlarge");
    assert.equal(variant?.InstancePools, undefined);
    assert.equal(variant?.ContainerStartupHealthCheckTimeoutInSeconds, 1800);
    assert.equal(variant?.ModelDataDownloadTimeoutInSeconds, 1800);
  });

  it("scales the instance count with one policy, none on concurrent requests (the lanes' floors would read as overload)", () => {
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const policies = Object.values(template.findResources("AWS::ApplicationAutoScaling::ScalingPolicy"));
    const endpoint = logicalIdOf(template, "AWS::SageMaker::Endpoint");

    assert.equal(target.Properties.MinCapacity, 1);
    assert.equal(target.Properties.MaxCapacity, 2);
    assert.equal(target.Properties.ScalableDimension, "sagemaker:variant:DesiredInstanceCount");
    assert.deepEqual(target.Properties.ResourceId, {
      "Fn::Join": ["", ["endpoint/", { "Fn::GetAtt": [endpoint, "EndpointName"] }, "/variant/AllTraffic"]],
    });
    assert.equal(policies.length, 1);
    const tracking = (policies[0] as { Properties: Record<string, unknown> }).Properties
      .TargetTrackingScalingPolicyConfiguration as Record<string, unknown>;
    assert.equal(tracking.PredefinedMetricSpecification, undefined);
    assert.ok(!JSON.stringify(template.toJSON()).includes("ConcurrentRequestsPerModel"));
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

  it("reads a batch file in bounded invocations, invoking ingest again while a checkpoint is pending (JSONPath)", () => {
    const [, machine] = only(template, "AWS::StepFunctions::StateMachine");
    const [ingestId, ingest] = ingestFunction(template);

    const parts = (machine.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1];
    const definition = JSON.parse(
      parts
        .map((part) => (typeof part === "string" ? part : JSON.stringify(JSON.stringify(part)).slice(1, -1)))
        .join(""),
    ) as { StartAt: string; QueryLanguage?: string; States: Record<string, Record<string, unknown>> };
    // JSONPath (the default): the local stack runs this definition with an interpreter that knows no JSONata.
    assert.equal(definition.QueryLanguage, undefined);
    assert.equal(definition.StartAt, "IngestFrom");
    const invoke = definition.States.IngestFrom as Record<string, unknown>;
    assert.equal(invoke.Type, "Task");
    assert.match(String(invoke.Resource), /:states:::lambda:invoke"?$/);
    assert.equal((invoke.Parameters as Record<string, unknown>)["Payload.$"], "$");
    assert.match(JSON.stringify(invoke.Parameters), new RegExp(ingestId));
    assert.deepEqual(invoke.ResultSelector, { "pending.$": "$.Payload.pending" });
    // The state waits past the function's own timeout (ASL's default for a task is 60 s).
    assert.ok(
      Number(invoke.TimeoutSeconds) > Number(ingest.Properties.Timeout),
      String(invoke.TimeoutSeconds),
    );
    assert.equal(invoke.Next, "MoreToRead");
    assert.deepEqual(definition.States.MoreToRead, {
      Type: "Choice",
      Choices: [{ Variable: "$.pending[0]", IsPresent: true, Next: "IngestFrom" }],
      Default: "Done",
    });
    assert.equal(machine.Properties.TracingConfiguration !== undefined, true);
  });

  it("turns incident events of the configured source and detail-type into messages of the interactive lane", () => {
    const [, rule] = only(template, "AWS::Events::Rule", {
      EventPattern: Match.objectLike({ source: ["acme.monitoring"] }),
    });
    const { queueId: workQueue, deadLetterQueueId } = laneResources(template, "interactive");

    assert.deepEqual(rule.Properties.EventPattern, {
      source: ["acme.monitoring"],
      "detail-type": ["Incident Opened"],
    });
    const [target] = rule.Properties.Targets as Array<Record<string, unknown>>;
    assert.deepEqual(target?.Arn, { "Fn::GetAtt": [workQueue, "Arn"] });
    assert.deepEqual(target?.DeadLetterConfig, { Arn: { "Fn::GetAtt": [deadLetterQueueId, "Arn"] } });
  });

  it("outputs each lane's queue and DLQ URLs", () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    for (const lane of LANES) {
      const { queueId, deadLetterQueueId } = laneResources(template, lane);
      const name = lane === "interactive" ? "Interactive" : "Bulk";
      assert.deepEqual(outputs[`${name}QueueUrl`]?.Value, { Ref: queueId });
      assert.deepEqual(outputs[`${name}DeadLetterQueueUrl`]?.Value, { Ref: deadLetterQueueId });
    }
  });

  it("runs the functions on Node.js 24, arm64, with the policies folder configured", () => {
    const decide = LANES.map((lane) => laneResources(template, lane).fn);
    for (const fn of [...decide, ingestFunction(template)[1]]) {
      assert.equal(fn.Properties.Runtime, "nodejs24.x");
      assert.deepEqual(fn.Properties.Architectures, ["arm64"]);
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      assert.equal(variables.POLICY_DIR, "/var/task/policies");
      assert.equal(variables.POWERTOOLS_METRICS_NAMESPACE, "Decisions");
    }
  });

  it("has the decide functions give back an item of a policy they have not loaded for 15 minutes (a rollout) before rejecting it", () => {
    for (const lane of LANES) {
      assert.equal(laneResources(template, lane).variables.UNKNOWN_POLICY_WAIT_SECONDS, "900");
    }
  });

  it("alarms on dead letters and message age per lane, interactive latency, endpoint errors, function errors (the capacity controller's too) and throttles, configuration errors, and each policy's fallback rate", () => {
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")) as Resource[];
    const names = alarms.map((alarm) => (alarm.Properties.MetricName as string | undefined) ?? "math");

    assert.deepEqual(names.sort(), [
      // each lane's queue
      "ApproximateAgeOfOldestMessage",
      "ApproximateAgeOfOldestMessage",
      // each lane's DLQ, both Pipes' undelivered records, the results writer's unwritten jobs
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ApproximateNumberOfMessagesVisible",
      "ConfigurationErrors",
      // each lane's decide function, ingest, the jobs monitor, the capacity controller, the drift monitor
      "Errors",
      "Errors",
      "Errors",
      "Errors",
      "Errors",
      "Errors",
      "IngestUnsentLines",
      "JobsStalled",
      // One drift alarm per policy (DriftMonitorFunction).
      "PolicyDrift",
      "PolicyDrift",
      "PolicyDrift",
      // the interactive lane's p95 send → outcome
      "SendToOutcome",
      // each lane's decide function, ingest
      "Throttles",
      "Throttles",
      "Throttles",
      // the endpoint's 5xx and ModelError rates, the ingest workflow's failed, timed-out and
      // aborted runs, then each policy's fallback rate
      "math",
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

  it("alarms per lane on its own DLQ and its oldest message (900 s interactive, a day bulk), and on the interactive p95 send → outcome", () => {
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")) as Resource[];
    const on = (metricName: string, queueId: string) =>
      alarms.filter(
        (alarm) =>
          alarm.Properties.MetricName === metricName &&
          JSON.stringify(alarm.Properties.Dimensions) ===
            JSON.stringify([{ Name: "QueueName", Value: { "Fn::GetAtt": [queueId, "QueueName"] } }]),
      );
    const ages = { interactive: 900, bulk: 86_400 };

    for (const lane of LANES) {
      const { queueId, deadLetterQueueId } = laneResources(template, lane);
      const [dead, ...moreDead] = on("ApproximateNumberOfMessagesVisible", deadLetterQueueId);
      const [age, ...moreAge] = on("ApproximateAgeOfOldestMessage", queueId);
      assert.deepEqual([moreDead, moreAge], [[], []]);
      assert.deepEqual(
        [dead?.Properties.Threshold, dead?.Properties.ComparisonOperator],
        [1, "GreaterThanOrEqualToThreshold"],
      );
      assert.match(String(dead?.Properties.AlarmDescription), new RegExp(`${lane} lane's dead-letter queue`));
      assert.deepEqual([age?.Properties.Threshold, age?.Properties.Statistic], [ages[lane], "Maximum"]);
    }
    const [, latency] = only(template, "AWS::CloudWatch::Alarm", { MetricName: "SendToOutcome" });
    assert.deepEqual(
      [
        latency.Properties.Namespace,
        latency.Properties.Dimensions,
        latency.Properties.ExtendedStatistic,
        latency.Properties.Period,
        latency.Properties.EvaluationPeriods,
        latency.Properties.Threshold,
        latency.Properties.ComparisonOperator,
        (latency.Properties.AlarmActions as unknown[]).length,
      ],
      [
        "Decisions",
        [
          { Name: "lane", Value: "interactive" },
          { Name: "service", Value: "decide" },
        ],
        "p95",
        300,
        2,
        60_000,
        "GreaterThanThreshold",
        1,
      ],
    );
  });

  it("shows each lane's queue, send → outcome time and decide function on the dashboard", () => {
    const [, dashboard] = only(template, "AWS::CloudWatch::Dashboard");
    const body = JSON.stringify(dashboard.Properties.DashboardBody);

    for (const lane of LANES) {
      for (const title of [
        `${lane}: queue depth`,
        `${lane}: send → outcome (ms)`,
        `${lane}: decide function`,
      ]) {
        assert.ok(body.includes(title), title);
      }
      assert.match(
        body,
        new RegExp(
          `\\\\"SendToOutcome\\\\",\\\\"lane\\\\",\\\\"${lane}\\\\",\\\\"service\\\\",\\\\"decide\\\\"`,
        ),
        lane,
      );
    }
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

    assert.equal(environmentOf("-1").SEMIF_QUEUE_DEPTH, "8");
    assert.equal(environmentOf("-1").SEMIF_REQUEST_TIMEOUT_MS, "30000");
    assert.equal(environmentOf("0").SEMIF_QUEUE_DEPTH, "3");
    assert.equal(environmentOf("0").SEMIF_REQUEST_TIMEOUT_MS, "55000");
    for (const layers of ["-1", "0"]) assert.equal(environmentOf(layers).SEMIF_INTERACTIVE_RESERVE, "2");
    // At minimum capacity the one instance may be the CPU fallback (4 places, 2 reserved): 2 × 1 per lane.
    assert.deepEqual(sizingOf(template, "interactive"), [2, 1]);
    assert.deepEqual(sizingOf(template, "bulk"), [2, 1]);
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
    // 9 GPU places at minimum capacity: interactive the 2 reserved (2 × 1), bulk the other 7 (2 × 3).
    assert.deepEqual(sizingOf(template, "interactive"), [2, 1]);
    assert.deepEqual(sizingOf(template, "bulk"), [2, 3]);
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
    // cdk.json as it is (the shared synth): its assembly's messages, as Annotations.fromStack reads them.
    const { messages } = synthVariant("cpu");

    const warnings = messages
      .filter((message) => message.level === "warning")
      .map((message) => String(message.entry.data));
    assert.deepEqual(
      warnings.filter((text) => /no policy maps/.test(text)),
      [],
    );
  });
});

describe("DecisionsStack sizing", () => {
  it("raises each lane's maximum concurrency with the endpoint's minimum instances, not its maximum", () => {
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
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");

    assert.equal(target.Properties.MaxCapacity, 10);
    // Interactive: 2 instances × 2 reserved = 4 calls, 2 × 2; bulk: 2 × (9 − 2) = 14 calls, 4 × 3.
    assert.deepEqual(sizingOf(template, "interactive"), [2, 2]);
    assert.deepEqual(sizingOf(template, "bulk"), [4, 3]);
  });

  it("keeps both lanes' visibility timeouts at 6 × the function timeout when the timeout changes", () => {
    const template = templateOf({ context: { functionTimeoutSeconds: 300, batchingWindowSeconds: 5 } });

    for (const lane of LANES) {
      assert.equal(laneResources(template, lane).queue.Properties.VisibilityTimeout, 6 * 300 + 5);
    }
  });

  it("refuses at synth a reserve that leaves the bulk lane fewer than 2 calls, naming the knob to raise", () => {
    assert.throws(
      () => templateOf({ context: { cpuRequestsPerInstance: 3 } }),
      (error: unknown) =>
        error instanceof InfraConfigError &&
        error.problems.length === 1 &&
        error.problems[0]?.knob === "cpuRequestsPerInstance" &&
        /bulk lane/.test(error.message),
    );
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

  it("serves a hub repository's file with standardHfRepo/standardHfFile: passed to the image, egress allowed, no S3 read", () => {
    // prepare
    const { template } = synthVariant("standardHub");

    // act
    const [, model] = only(template, "AWS::SageMaker::Model", {
      PrimaryContainer: Match.objectLike({ Image: STANDARD_IMAGE }),
    });

    // assert: the hub coordinates reach llama-server as --hf-repo/--hf-file
    const container = model.Properties.PrimaryContainer as Record<string, unknown>;
    assert.deepEqual(container.Environment, {
      SM_LLAMA_CPP_CTX_SIZE: "8192",
      SM_LLAMA_CPP_HF_REPO: "Qwen/Qwen3-0.6B-GGUF",
      SM_LLAMA_CPP_HF_FILE: "Qwen3-0.6B-Q8_0.gguf",
    });
    assert.equal(container.ModelDataUrl, undefined);
    assert.equal(container.ModelDataSource, undefined);
    // The download is an outbound call: network isolation would block it.
    assert.equal(model.Properties.EnableNetworkIsolation, false);
    const role = (model.Properties.ExecutionRoleArn as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
    const reads = (Object.values(template.findResources("AWS::IAM::Policy")) as Resource[])
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${role}"`))
      .flatMap(
        (policy) => (policy.Properties.PolicyDocument as { Statement: Array<{ Action: unknown }> }).Statement,
      )
      .filter((statement) => actionsOf(statement).some((action) => action.startsWith("s3:")));
    assert.deepEqual(reads, [], "the standard model's role reads no S3 object");
    // The decision endpoint keeps its S3 model data, network-isolated.
    const [, decision] = only(template, "AWS::SageMaker::Model", {
      PrimaryContainer: Match.objectLike({ ModelDataUrl: Match.anyValue() }),
    });
    assert.equal(decision.Properties.EnableNetworkIsolation, true);
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
