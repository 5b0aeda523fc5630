import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match, type Template } from "aws-cdk-lib/assertions";
import { synthVariant } from "./synthVariant.js";
import {
  actionsOf,
  actionsOn,
  JOBS_TABLE_PROPS,
  laneResources,
  only,
  type Resource,
  resourcesOf,
  type Statement,
  statementsOf,
} from "./templateQueries.js";

/** The function whose environment has `variable` (set to `value`, when given). */
function functionWith(template: Template, variable: string, value?: unknown): [string, Resource] {
  return only(template, "AWS::Lambda::Function", {
    Environment: { Variables: Match.objectLike({ [variable]: value ?? Match.anyValue() }) },
  });
}

/** The function's statements that name an action of `service` (e.g. `dynamodb:`). */
function statementsFor(template: Template, fn: Resource, service: string): Statement[] {
  return statementsOf(template, fn).filter((statement) =>
    actionsOf(statement).some((action) => action.startsWith(service)),
  );
}

describe("batch jobs in the CDK app", () => {
  const { template } = synthVariant("cpu");
  const [jobsId, jobs] = only(template, "AWS::DynamoDB::Table", JOBS_TABLE_PROPS);
  const jobsArn = { "Fn::GetAtt": [jobsId, "Arn"] };

  it("keeps jobs in an on-demand, encrypted table with PITR, the local stack's keys and list index, and a stream", () => {
    assert.equal(jobs.Properties.BillingMode, "PAY_PER_REQUEST");
    assert.deepEqual(jobs.Properties.PointInTimeRecoverySpecification, { PointInTimeRecoveryEnabled: true });
    assert.deepEqual(jobs.Properties.SSESpecification, { SSEEnabled: true });
    assert.deepEqual(jobs.Properties.StreamSpecification, { StreamViewType: "NEW_AND_OLD_IMAGES" });
    assert.deepEqual(jobs.Properties.KeySchema, [
      { AttributeName: "job_id", KeyType: "HASH" },
      { AttributeName: "line", KeyType: "RANGE" },
    ]);
    const [index] = jobs.Properties.GlobalSecondaryIndexes as Array<Record<string, unknown>>;
    assert.equal(index?.IndexName, "by-created");
    assert.deepEqual(index?.KeySchema, [
      { AttributeName: "record_kind", KeyType: "HASH" },
      { AttributeName: "created_at", KeyType: "RANGE" },
    ]);
    assert.deepEqual(index?.Projection, {
      ProjectionType: "INCLUDE",
      NonKeyAttributes: ["job_id", "source", "status", "completed_at", "results_uri", "manifest_uri"],
    });
  });

  it("gives each lane's decide function JOBS_TABLE and its queue's maxReceiveCount, and the ingest function JOBS_TABLE", () => {
    const [, ingest] = functionWith(template, "WORK_QUEUE_URL");

    for (const lane of ["interactive", "bulk"]) {
      const { queue, variables } = laneResources(template, lane);
      assert.deepEqual(variables.JOBS_TABLE, { Ref: jobsId });
      assert.equal(
        variables.MAX_RECEIVE_COUNT,
        String((queue.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount),
      );
    }
    const ingestVariables = (ingest.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    assert.deepEqual(ingestVariables.JOBS_TABLE, { Ref: jobsId });
  });

  it("lets the decide and ingest functions put, query and update items of the jobs table, and nothing more there", () => {
    const functions: Array<[string, Resource]> = [
      ["interactive", laneResources(template, "interactive").fn],
      ["bulk", laneResources(template, "bulk").fn],
      ["ingest", functionWith(template, "WORK_QUEUE_URL")[1]],
    ];
    for (const [name, fn] of functions) {
      const statements = statementsFor(template, fn, "dynamodb:");

      assert.deepEqual(
        actionsOn(statements, jobsArn),
        ["dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"],
        name,
      );
      const elsewhere = statements
        .flatMap(resourcesOf)
        .filter((resource) => JSON.stringify(resource).includes(jobsId));
      assert.deepEqual(
        elsewhere,
        elsewhere.map(() => jobsArn),
        `${name}: no index or other ARN of the jobs table`,
      );
    }
  });
});

describe("the results writer in the CDK app", () => {
  const { template } = synthVariant("cpu");
  const [jobsId] = only(template, "AWS::DynamoDB::Table", JOBS_TABLE_PROPS);
  const [bucketId] = only(template, "AWS::S3::Bucket", { VersioningConfiguration: Match.anyValue() });
  const [writerId, writer] = functionWith(template, "POWERTOOLS_SERVICE_NAME", "results");
  const [, mapping] = only(template, "AWS::Lambda::EventSourceMapping", {
    FunctionName: { Ref: writerId },
  });

  it("runs on the jobs table's stream, filtered to the change that set a job's ended_at, with batch item failures", () => {
    assert.deepEqual(mapping.Properties.EventSourceArn, { "Fn::GetAtt": [jobsId, "StreamArn"] });
    assert.deepEqual(mapping.Properties.FunctionResponseTypes, ["ReportBatchItemFailures"]);
    assert.equal(mapping.Properties.BisectBatchOnFunctionError, true);
    assert.equal(mapping.Properties.StartingPosition, "TRIM_HORIZON");
    const filters = (mapping.Properties.FilterCriteria as { Filters: Array<{ Pattern: string }> }).Filters;
    assert.deepEqual(
      filters.map((filter) => JSON.parse(filter.Pattern)),
      [
        {
          eventName: ["MODIFY"],
          dynamodb: {
            Keys: { line: { N: ["0"] } },
            NewImage: { ended_at: { S: [{ exists: true }] } },
            OldImage: { ended_at: { S: [{ exists: false }] } },
          },
        },
      ],
    );
    const variables = (writer.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    assert.deepEqual(variables.JOBS_TABLE, { Ref: jobsId });
  });

  it("keeps the records it gave up on in a queue of the stack that an alarm watches", () => {
    const destination = (mapping.Properties.DestinationConfig as { OnFailure: { Destination: unknown } })
      .OnFailure.Destination;
    const [queueId] = Object.keys(template.findResources("AWS::SQS::Queue")).filter(
      (id) => JSON.stringify(destination) === JSON.stringify({ "Fn::GetAtt": [id, "Arn"] }),
    );
    assert.ok(queueId !== undefined, "the on-failure destination is a queue of the stack");
    assert.equal(mapping.Properties.MaximumRetryAttempts, 10);
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")).filter((alarm) =>
      JSON.stringify(alarm).includes(`{"Fn::GetAtt":["${queueId}","QueueName"]}`),
    );
    assert.equal(alarms.length, 1);
  });

  it("may get, query and update the jobs table and put objects under results/ of the ingest bucket, nothing else", () => {
    const statements = statementsOf(template, writer);
    const dynamodb = statements.filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith("dynamodb:")),
    );
    const s3 = statements.filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith("s3:")),
    );
    const results = { "Fn::Join": ["", [{ "Fn::GetAtt": [bucketId, "Arn"] }, "/results/*"]] };

    assert.deepEqual(actionsOn(dynamodb, { "Fn::GetAtt": [jobsId, "Arn"] }), [
      "dynamodb:GetItem",
      "dynamodb:Query",
      "dynamodb:UpdateItem",
    ]);
    assert.deepEqual(actionsOn(dynamodb, { "Fn::GetAtt": [jobsId, "StreamArn"] }), [
      "dynamodb:DescribeStream",
      "dynamodb:GetRecords",
      "dynamodb:GetShardIterator",
    ]);
    assert.deepEqual(actionsOn(dynamodb, "*"), ["dynamodb:ListStreams"]);
    assert.deepEqual(
      dynamodb
        .flatMap(resourcesOf)
        .map((resource) => JSON.stringify(resource))
        .sort(),
      [
        JSON.stringify("*"),
        JSON.stringify({ "Fn::GetAtt": [jobsId, "Arn"] }),
        JSON.stringify({ "Fn::GetAtt": [jobsId, "StreamArn"] }),
      ].sort(),
      "no outcomes table, no index",
    );
    assert.deepEqual(s3.flatMap(resourcesOf), [results]);
    assert.deepEqual(actionsOn(s3, results), ["s3:AbortMultipartUpload", "s3:PutObject"]);
  });
});

describe("the Decision Job Completed events in the CDK app", () => {
  const { template } = synthVariant("cpu");
  const [jobsId] = only(template, "AWS::DynamoDB::Table", JOBS_TABLE_PROPS);
  const [busId] = only(template, "AWS::Events::EventBus");
  const [, pipe] = only(template, "AWS::Pipes::Pipe", {
    TargetParameters: Match.objectLike({
      EventBridgeEventBusParameters: Match.objectLike({ Source: "decisions.jobs" }),
    }),
  });
  const enrichmentId = (pipe.Properties.Enrichment as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
  const enrichment = template.toJSON().Resources[enrichmentId] as Resource;

  it("reads the jobs table's stream, filtered to a job record's status becoming final", () => {
    const source = pipe.Properties.SourceParameters as {
      FilterCriteria: { Filters: Array<{ Pattern: string }> };
      DynamoDBStreamParameters: { DeadLetterConfig: { Arn: unknown }; MaximumRetryAttempts: number };
    };
    const final = ["complete", "complete_with_errors", "failed"];

    assert.deepEqual(pipe.Properties.Source, { "Fn::GetAtt": [jobsId, "StreamArn"] });
    assert.deepEqual(
      source.FilterCriteria.Filters.map((filter) => JSON.parse(filter.Pattern)),
      [
        {
          eventName: ["MODIFY"],
          dynamodb: {
            Keys: { line: { N: ["0"] } },
            NewImage: { status: { S: final } },
            OldImage: { status: { S: [{ "anything-but": final }] } },
          },
        },
      ],
    );
    assert.equal(source.DynamoDBStreamParameters.MaximumRetryAttempts, 10);
    const [queueId] = Object.keys(template.findResources("AWS::SQS::Queue")).filter(
      (id) =>
        JSON.stringify(source.DynamoDBStreamParameters.DeadLetterConfig.Arn) ===
        JSON.stringify({ "Fn::GetAtt": [id, "Arn"] }),
    );
    assert.ok(queueId !== undefined, "the Pipe dead-letters into a queue of the stack");
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")).filter((alarm) =>
      JSON.stringify(alarm).includes(`{"Fn::GetAtt":["${queueId}","QueueName"]}`),
    );
    assert.equal(alarms.length, 1);
  });

  it("enriches each record with the job events function and puts the result on the outcomes bus as Decision Job Completed", () => {
    assert.equal(enrichment.Type, "AWS::Lambda::Function");
    assert.match(JSON.stringify(enrichment.Properties.Handler), /handler/);
    assert.deepEqual(pipe.Properties.Target, { "Fn::GetAtt": [busId, "Arn"] });
    assert.deepEqual(pipe.Properties.TargetParameters, {
      EventBridgeEventBusParameters: { Source: "decisions.jobs", DetailType: "Decision Job Completed" },
    });
  });

  it("lets the Pipe read that stream, invoke that function, put on that bus and send to its queue; the function only logs", () => {
    const roleId = (pipe.Properties.RoleArn as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
    const policies = Object.values(template.findResources("AWS::IAM::Policy")).filter((policy) =>
      JSON.stringify((policy as Resource).Properties.Roles).includes(`"${roleId}"`),
    ) as Resource[];
    const statements = policies.flatMap(
      (policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
    );
    const byResource = Object.fromEntries(
      statements
        .flatMap(resourcesOf)
        .map((resource) => [JSON.stringify(resource), actionsOn(statements, resource)]),
    );

    assert.deepEqual(byResource, {
      [JSON.stringify({ "Fn::GetAtt": [jobsId, "StreamArn"] })]: [
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
      ],
      [JSON.stringify("*")]: ["dynamodb:ListStreams"],
      [JSON.stringify({ "Fn::GetAtt": [enrichmentId, "Arn"] })]: ["lambda:InvokeFunction"],
      [JSON.stringify({ "Fn::GetAtt": [busId, "Arn"] })]: ["events:PutEvents"],
      [JSON.stringify(
        (
          pipe.Properties.SourceParameters as {
            DynamoDBStreamParameters: { DeadLetterConfig: { Arn: unknown } };
          }
        ).DynamoDBStreamParameters.DeadLetterConfig.Arn,
      )]: ["sqs:SendMessage"],
    });
    const own = statementsOf(template, enrichment);
    assert.deepEqual(own.flatMap(actionsOf).sort(), ["logs:CreateLogStream", "logs:PutLogEvents"]);
  });
});

describe("the jobs monitor, its alarm and the dashboard in the CDK app", () => {
  const { template } = synthVariant("cpu");
  const [jobsId] = only(template, "AWS::DynamoDB::Table", JOBS_TABLE_PROPS);
  const [monitorId, monitor] = functionWith(template, "POWERTOOLS_SERVICE_NAME", "jobs-monitor");

  it("runs the monitor every 5 minutes with the stall time, on the jobs table", () => {
    const [, rule] = only(template, "AWS::Events::Rule", {
      ScheduleExpression: Match.anyValue(),
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [monitorId, "Arn"] } })],
    });
    const variables = (monitor.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

    assert.equal(rule.Properties.ScheduleExpression, "rate(5 minutes)");
    assert.deepEqual(
      (rule.Properties.Targets as Array<{ Arn: unknown; RetryPolicy?: unknown }>).map((target) => [
        target.Arn,
        target.RetryPolicy,
      ]),
      [[{ "Fn::GetAtt": [monitorId, "Arn"] }, { MaximumRetryAttempts: 0 }]],
    );
    assert.deepEqual(variables.JOBS_TABLE, { Ref: jobsId });
    assert.equal(variables.JOB_STALL_MINUTES, "60");
  });

  it("lets the monitor query the by-created index and the jobs table (a job's record and counters), and update the table (a job's end), nothing else", () => {
    const statements = statementsFor(template, monitor, "dynamodb:");
    const index = { "Fn::Join": ["", [{ "Fn::GetAtt": [jobsId, "Arn"] }, "/index/by-created"]] };

    assert.deepEqual(
      statements
        .flatMap(resourcesOf)
        .map((resource) => JSON.stringify(resource))
        .sort(),
      [JSON.stringify(index), JSON.stringify({ "Fn::GetAtt": [jobsId, "Arn"] })].sort(),
    );
    assert.deepEqual(actionsOn(statements, index), ["dynamodb:Query"]);
    assert.deepEqual(actionsOn(statements, { "Fn::GetAtt": [jobsId, "Arn"] }), [
      "dynamodb:Query",
      "dynamodb:UpdateItem",
    ]);
  });

  it("alarms on one stalled job and on a failed check, on the pipeline's topic", () => {
    const [, stalled] = only(template, "AWS::CloudWatch::Alarm", { MetricName: "JobsStalled" });
    const [, errors] = only(template, "AWS::CloudWatch::Alarm", {
      MetricName: "Errors",
      Dimensions: [{ Name: "FunctionName", Value: { Ref: monitorId } }],
    });

    assert.deepEqual(
      [
        stalled.Properties.Namespace,
        stalled.Properties.Dimensions,
        stalled.Properties.Statistic,
        stalled.Properties.Period,
        stalled.Properties.Threshold,
        stalled.Properties.ComparisonOperator,
      ],
      [
        "Decisions",
        [{ Name: "service", Value: "jobs-monitor" }],
        "Maximum",
        300,
        1,
        "GreaterThanOrEqualToThreshold",
      ],
    );
    assert.match(String(stalled.Properties.AlarmDescription), /60 minutes/);
    assert.deepEqual(stalled.Properties.AlarmActions, errors.Properties.AlarmActions);
    assert.equal((stalled.Properties.AlarmActions as unknown[]).length, 1);
  });

  it("shows jobs in progress, stalled jobs and lines pending on the dashboard", () => {
    const [, dashboard] = only(template, "AWS::CloudWatch::Dashboard");
    const body = JSON.stringify(dashboard.Properties.DashboardBody);

    for (const metric of ["JobsInProgress", "JobsStalled", "JobLinesPending"]) {
      assert.match(body, new RegExp(`\\\\"${metric}\\\\",\\\\"service\\\\",\\\\"jobs-monitor\\\\"`), metric);
    }
  });
});
