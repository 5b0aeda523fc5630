import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match, type Template } from "aws-cdk-lib/assertions";
import { synthVariant } from "./synthVariant.js";
import { laneResources, OUTCOMES_PIPE_PROPS, OUTCOMES_TABLE_PROPS } from "./templateQueries.js";

type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
};

function resources(template: Template, type: string): Array<[string, Resource]> {
  return Object.entries(template.findResources(type)) as Array<[string, Resource]>;
}

function only(template: Template, type: string, props?: Record<string, unknown>): [string, Resource] {
  const found = Object.entries(
    template.findResources(type, props ? { Properties: props } : undefined),
  ) as Array<[string, Resource]>;
  assert.equal(found.length, 1, `expected exactly one ${type}, found ${found.length}`);
  return found[0] as [string, Resource];
}

/** The decision endpoint (the one with a scalable target). */
function decisionEndpoint(template: Template): [string, Resource] {
  const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
  const name = JSON.stringify(target.Properties.ResourceId);
  const found = resources(template, "AWS::SageMaker::Endpoint").filter(([id]) => name.includes(`"${id}"`));
  assert.equal(found.length, 1);
  return found[0] as [string, Resource];
}

/** The SageMaker execution role of the decision endpoint's models and its inline statements. */
function sageMakerRole(template: Template): {
  role: Resource;
  statements: Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown }>;
} {
  const roles = resources(template, "AWS::IAM::Role").filter(([, role]) =>
    JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes("sagemaker.amazonaws.com"),
  );
  const decision = roles.find(([id]) => id.startsWith("DecisionEndpoint"));
  assert.ok(decision !== undefined, "the decision endpoint has an execution role");
  const [roleId, role] = decision;
  const statements = resources(template, "AWS::IAM::Policy")
    .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
    .flatMap(
      ([, policy]) =>
        (
          policy.Properties.PolicyDocument as {
            Statement: Array<{ Action: string | string[]; Resource: unknown }>;
          }
        ).Statement,
    );
  return { role, statements };
}

const actions = (statement: { Action: string | string[] }) =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

describe("day-2 changes of the decision endpoint", () => {
  const cpu = synthVariant("cpu");
  const gpu = synthVariant("gpu");

  it("updates blue/green with auto-rollback on the endpoint's own alarms, keeping the instance count", () => {
    const [, endpoint] = decisionEndpoint(cpu.template);
    const alarmIds = resources(cpu.template, "AWS::CloudWatch::Alarm").map(([id]) => id);

    assert.equal(endpoint.Properties.RetainAllVariantProperties, true);
    const config = endpoint.Properties.DeploymentConfig as {
      BlueGreenUpdatePolicy: Record<string, unknown>;
      AutoRollbackConfiguration: { Alarms: Array<{ AlarmName: unknown }> };
    };
    assert.deepEqual(config.BlueGreenUpdatePolicy.TrafficRoutingConfiguration, {
      Type: "ALL_AT_ONCE",
      WaitIntervalInSeconds: 600,
    });
    const rollback = config.AutoRollbackConfiguration.Alarms.map((alarm) => alarm.AlarmName as unknown);
    assert.equal(rollback.length, 2);
    for (const name of rollback) {
      const ref = (name as { Ref?: string }).Ref;
      assert.ok(
        ref !== undefined && alarmIds.includes(ref),
        `${JSON.stringify(name)} is an alarm of the stack`,
      );
    }
  });

  it("shifts a canary of half the fleet when the production profile runs two instances or more", () => {
    const [, endpoint] = decisionEndpoint(synthVariant("production").template);
    const routing = (
      endpoint.Properties.DeploymentConfig as { BlueGreenUpdatePolicy: Record<string, unknown> }
    ).BlueGreenUpdatePolicy.TrafficRoutingConfiguration;

    assert.deepEqual(routing, {
      Type: "CANARY",
      CanarySize: { Type: "CAPACITY_PERCENT", Value: 50 },
      WaitIntervalInSeconds: 600,
    });
  });

  it("names the endpoint after its instance types: changing them replaces the endpoint and its scalable target together", () => {
    const [, cpuEndpoint] = decisionEndpoint(cpu.template);
    const [gpuId, gpuEndpoint] = decisionEndpoint(gpu.template);
    const [, gpuTarget] = only(gpu.template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const cpuName = cpuEndpoint.Properties.EndpointName as string;
    const gpuName = gpuEndpoint.Properties.EndpointName as string;

    // EndpointName is a replacement property: a new name is a new endpoint, never an UpdateEndpoint
    // that changes an instance type under a registered scalable target.
    assert.match(cpuName, /^decisions-decisions-[0-9a-f]{8}$/);
    assert.match(gpuName, /^decisions-decisions-[0-9a-f]{8}$/);
    assert.notEqual(cpuName, gpuName);
    assert.ok(cpuName.length <= 63);
    // The target's resource id follows the endpoint, so CloudFormation replaces it with the endpoint.
    assert.deepEqual(gpuTarget.Properties.ResourceId, {
      "Fn::Join": ["", ["endpoint/", { "Fn::GetAtt": [gpuId, "EndpointName"] }, "/variant/AllTraffic"]],
    });
    // The same hardware keeps the same name (a model or image change is an UpdateEndpoint).
    const again = synthVariant("standard");
    assert.equal(decisionEndpoint(again.template)[1].Properties.EndpointName, gpuName);
  });
});

describe("stateful resources", () => {
  const { template } = synthVariant("cpu");

  it("keeps the table and every bucket on delete and replacement, except when their first create fails", () => {
    const kept = [...resources(template, "AWS::DynamoDB::Table"), ...resources(template, "AWS::S3::Bucket")];

    // The outcomes and jobs tables, the front door's idempotency table, the ingest bucket and its
    // access logs, the review console's page and its logs.
    assert.equal(kept.length, 7);
    for (const [id, resource] of kept) {
      assert.equal(resource.DeletionPolicy, "RetainExceptOnCreate", id);
      assert.equal(resource.UpdateReplacePolicy, "Retain", id);
    }
    for (const [id, table] of resources(template, "AWS::DynamoDB::Table"))
      assert.equal(table.Properties.DeletionProtectionEnabled, true, id);
  });

  it("delivers server access logs under a bucket policy, with ACLs disabled", () => {
    const logs = resources(template, "AWS::S3::Bucket").find(
      ([, bucket]) => bucket.Properties.VersioningConfiguration === undefined,
    );
    assert.ok(logs !== undefined);
    assert.equal(logs[1].Properties.AccessControl, undefined);
    assert.deepEqual(logs[1].Properties.OwnershipControls, {
      Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }],
    });
    template.hasResourceProperties("AWS::S3::BucketPolicy", {
      Bucket: { Ref: logs[0] },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: "logging.s3.amazonaws.com" }, Action: "s3:PutObject" }),
        ]),
      },
    });
  });
});

describe("alarms", () => {
  const { template } = synthVariant("cpu");
  const alarms = resources(template, "AWS::CloudWatch::Alarm");

  it("watches every SQS queue of the template with at least one alarm", () => {
    const queues = resources(template, "AWS::SQS::Queue").map(([id]) => id);

    assert.equal(
      queues.length,
      7,
      "each lane's work queue and DLQ, the outcomes and job events Pipes' undelivered records, the results writer's unwritten jobs",
    );
    for (const queue of queues) {
      const watching = alarms.filter(([, alarm]) =>
        JSON.stringify(alarm.Properties).includes(`{"Fn::GetAtt":["${queue}","QueueName"]}`),
      );
      assert.ok(watching.length > 0, `${queue} has no alarm`);
    }
  });

  it("alarms on the endpoint's 5xx and ModelError rates only with at least 20 invocations in 5 minutes", () => {
    const rates = alarms.filter(([, alarm]) =>
      JSON.stringify(alarm.Properties.Metrics ?? []).includes("Invocations"),
    );

    assert.equal(rates.length, 2);
    for (const [, alarm] of rates) {
      const metrics = alarm.Properties.Metrics as Array<{
        Id: string;
        Expression?: string;
        MetricStat?: unknown;
      }>;
      const expression = metrics.find((metric) => metric.Expression !== undefined)?.Expression;
      assert.equal(expression, "IF(FILL(invocations, 0) >= 20, 100 * FILL(errors, 0) / invocations)");
      assert.equal(alarm.Properties.Threshold, 5);
      assert.equal(alarm.Properties.ComparisonOperator, "GreaterThanThreshold");
      assert.equal(alarm.Properties.EvaluationPeriods, 2);
      assert.equal(alarm.Properties.TreatMissingData, "notBreaching");
      assert.match(JSON.stringify(metrics), /"Namespace":"AWS\/SageMaker"/);
      assert.match(JSON.stringify(metrics), /"MetricName":"Invocation(5XXErrors|ModelErrors)"/);
    }
  });

  it("sets the thresholds of the count alarms: any dead letter, undelivered record, error or throttle; 15 minutes of age", () => {
    const byMetric = (name: string) => alarms.filter(([, alarm]) => alarm.Properties.MetricName === name);

    for (const [, alarm] of [
      ...byMetric("ApproximateNumberOfMessagesVisible"),
      ...byMetric("Errors"),
      ...byMetric("Throttles"),
    ]) {
      assert.equal(alarm.Properties.Threshold, 1);
      assert.equal(alarm.Properties.ComparisonOperator, "GreaterThanOrEqualToThreshold");
    }
    const [age] = byMetric("ApproximateAgeOfOldestMessage");
    assert.equal(age?.[1].Properties.Threshold, 900);
    assert.equal(age?.[1].Properties.EvaluationPeriods, 5);
  });
});

describe("the outcomes Pipe", () => {
  it("publishes inserts and modifications of outcomes only (no failure record), keeping what it cannot deliver", () => {
    const { template } = synthVariant("cpu");
    const [, pipe] = only(template, "AWS::Pipes::Pipe", OUTCOMES_PIPE_PROPS);
    const source = pipe.Properties.SourceParameters as {
      FilterCriteria: { Filters: Array<{ Pattern: string }> };
      DynamoDBStreamParameters: { DeadLetterConfig: { Arn: unknown }; MaximumRetryAttempts: number };
    };

    assert.deepEqual(
      source.FilterCriteria.Filters.map((filter) => JSON.parse(filter.Pattern)),
      [
        {
          eventName: ["INSERT", "MODIFY"],
          // Failure records share the table (their own key prefix) and carry record_kind; outcomes do not.
          dynamodb: { NewImage: { record_kind: { S: [{ exists: false }] } } },
        },
      ],
    );
    const outcomes = only(template, "AWS::DynamoDB::Table", OUTCOMES_TABLE_PROPS);
    assert.deepEqual(outcomes[1].Properties.TimeToLiveSpecification, {
      AttributeName: "expires_at",
      Enabled: true,
    });
    const undelivered = resources(template, "AWS::SQS::Queue").find(
      ([id]) =>
        JSON.stringify(source.DynamoDBStreamParameters.DeadLetterConfig.Arn) ===
        JSON.stringify({ "Fn::GetAtt": [id, "Arn"] }),
    );
    assert.ok(undelivered !== undefined, "the Pipe dead-letters into a queue of the stack");
    assert.equal(source.DynamoDBStreamParameters.MaximumRetryAttempts, 10);
  });
});

describe("the SageMaker execution role", () => {
  it("trusts SageMaker for this account only and reads only the model object", () => {
    const { role, statements } = sageMakerRole(synthVariant("cpu").template);

    assert.deepEqual((role.Properties.AssumeRolePolicyDocument as { Statement: unknown[] }).Statement, [
      {
        Action: "sts:AssumeRole",
        Effect: "Allow",
        Principal: { Service: "sagemaker.amazonaws.com" },
        Condition: { StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } } },
      },
    ]);
    const s3 = statements.filter((statement) =>
      actions(statement).some((action) => action.startsWith("s3:")),
    );
    assert.deepEqual(
      s3.map((statement) => [actions(statement), statement.Resource]),
      [
        [
          ["s3:GetObject"],
          {
            "Fn::Join": [
              "",
              [
                "arn:",
                { Ref: "AWS::Partition" },
                ":s3:::decisions-models-",
                { Ref: "AWS::AccountId" },
                "-",
                { Ref: "AWS::Region" },
                "/model.tar.gz",
              ],
            ],
          },
        ],
      ],
    );
    assert.equal(statements.filter((statement) => actions(statement).includes("kms:Decrypt")).length, 0);
  });

  it("publishes metrics to no AWS/ namespace (reserved for AWS services)", () => {
    const { statements } = sageMakerRole(synthVariant("cpu").template);
    const [metrics] = statements.filter((statement) =>
      actions(statement).includes("cloudwatch:PutMetricData"),
    );

    assert.ok(metrics !== undefined);
    const namespaces = (metrics.Condition as { StringLike: { "cloudwatch:namespace": string[] } }).StringLike[
      "cloudwatch:namespace"
    ];
    assert.ok(namespaces.length > 0);
    for (const namespace of namespaces) assert.ok(!namespace.startsWith("AWS/"), namespace);
  });

  it("reads an unpacked model's prefix and decrypts with the model bucket's key through S3 only", () => {
    const { template } = synthVariant("production");
    const { statements } = sageMakerRole(template);
    const kms = statements.filter((statement) => actions(statement).includes("kms:Decrypt"));
    const list = statements.filter((statement) => actions(statement).includes("s3:ListBucket"));
    const [, model] = only(template, "AWS::SageMaker::Model");

    assert.deepEqual(
      kms.map((statement) => [statement.Resource, statement.Condition]),
      [
        [
          "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
          {
            StringEquals: {
              "kms:ViaService": { "Fn::Join": ["", ["s3.", { Ref: "AWS::Region" }, ".amazonaws.com"]] },
            },
          },
        ],
      ],
    );
    assert.equal(list.length, 1);
    assert.deepEqual(list[0]?.Condition, { StringLike: { "s3:prefix": ["qwen3/*"] } });
    const container = model.Properties.PrimaryContainer as Record<string, unknown>;
    assert.equal(container.ModelDataUrl, undefined);
    assert.deepEqual(
      (container.ModelDataSource as { S3DataSource: Record<string, unknown> }).S3DataSource.CompressionType,
      "None",
    );
    assert.deepEqual(
      (container.ModelDataSource as { S3DataSource: Record<string, unknown> }).S3DataSource.S3DataType,
      "S3Prefix",
    );
  });
});

describe("the production profile", () => {
  it("runs at least two instances (several Availability Zones) and scales to four", () => {
    const { template } = synthVariant("production");
    const [, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const [, config] = only(template, "AWS::SageMaker::EndpointConfig");

    assert.equal(target.Properties.MinCapacity, 2);
    assert.equal(target.Properties.MaxCapacity, 4);
    assert.equal(
      (config.Properties.ProductionVariants as Array<{ InitialInstanceCount: number }>)[0]
        ?.InitialInstanceCount,
      2,
    );
    // 2 CPU instances × 4 places = 8, 2 × 2 reserved: each lane 4 calls, 2 invocations × 2 groups.
    for (const lane of ["interactive", "bulk"]) {
      const { mapping, variables } = laneResources(template, lane);
      assert.deepEqual(mapping.Properties.ScalingConfig, { MaximumConcurrency: 2 }, lane);
      assert.equal(variables.MAX_CONCURRENT_GROUPS, "2", lane);
    }
  });
});
