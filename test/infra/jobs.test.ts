import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match, type Template } from "aws-cdk-lib/assertions";
import { synthVariant } from "./synthVariant.js";
import {
  actionsOf,
  actionsOn,
  JOBS_TABLE_PROPS,
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

  it("gives the decide function JOBS_TABLE and the work queue's maxReceiveCount, and the ingest function JOBS_TABLE", () => {
    const [, decide] = functionWith(template, "ENDPOINT_NAME");
    const [, ingest] = functionWith(template, "WORK_QUEUE_URL");
    const [, queue] = only(template, "AWS::SQS::Queue", { RedrivePolicy: Match.anyValue() });

    const decideVariables = (decide.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    const ingestVariables = (ingest.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    assert.deepEqual(decideVariables.JOBS_TABLE, { Ref: jobsId });
    assert.equal(
      decideVariables.MAX_RECEIVE_COUNT,
      String((queue.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount),
    );
    assert.deepEqual(ingestVariables.JOBS_TABLE, { Ref: jobsId });
  });

  it("lets the decide and ingest functions get, put and update items of the jobs table, and nothing more there", () => {
    for (const variable of ["ENDPOINT_NAME", "WORK_QUEUE_URL"]) {
      const [, fn] = functionWith(template, variable);
      const statements = statementsFor(template, fn, "dynamodb:");

      assert.deepEqual(
        actionsOn(statements, jobsArn),
        ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
        variable,
      );
      const elsewhere = statements
        .flatMap(resourcesOf)
        .filter((resource) => JSON.stringify(resource).includes(jobsId));
      assert.deepEqual(
        elsewhere,
        elsewhere.map(() => jobsArn),
        `${variable}: no index or other ARN of the jobs table`,
      );
    }
  });
});
