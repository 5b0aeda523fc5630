import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { App } from "aws-cdk-lib";
import { Match } from "aws-cdk-lib/assertions";
import { DRIFT_METRICS } from "../../contract/index.js";
import { readDriftMonitorConfig } from "../../functions/driftMonitor/index.js";
import { readInfraSettings } from "../../infra/index.js";
import { synthVariant } from "./synthVariant.js";
import { actionsOf, OUTCOMES_TABLE_PROPS, only, resourcesOf, statementsOf } from "./templateQueries.js";

describe("the drift monitor in the CDK app", () => {
  const { stack, template, findings, error } = synthVariant("cpu", { nag: true });
  const [tableId] = only(template, "AWS::DynamoDB::Table", OUTCOMES_TABLE_PROPS);
  const [fnId, fn] = only(template, "AWS::Lambda::Function", {
    Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: DRIFT_METRICS.service }) },
  });

  it("runs the drift monitor's handler with the outcomes table, every policy and the threshold knob", () => {
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

    assert.deepEqual(variables.OUTCOMES_TABLE, { Ref: tableId });
    assert.equal(variables.DRIFT_POLICIES, stack.policies.map((policy) => policy.name).join(","));
    assert.equal(variables.DRIFT_THRESHOLD, "0.1");
    assert.equal(variables.POWERTOOLS_METRICS_NAMESPACE, "Decisions");
    assert.equal(fn.Properties.Runtime, "nodejs24.x");
    // What the function reads back at cold start (the table name stands in for its reference).
    const config = readDriftMonitorConfig({ ...variables, OUTCOMES_TABLE: "outcomes" } as Record<
      string,
      string
    >);
    assert.deepEqual(
      config.policies,
      stack.policies.map((policy) => policy.name),
    );
    assert.equal(config.threshold, 0.1);
  });

  it("is run every hour by an EventBridge schedule, without retries", () => {
    const [, rule] = only(template, "AWS::Events::Rule", {
      ScheduleExpression: "rate(1 hour)",
      Targets: Match.arrayWith([Match.objectLike({ Arn: { "Fn::GetAtt": [fnId, "Arn"] } })]),
    });

    const [target] = rule.Properties.Targets as Array<{ RetryPolicy?: { MaximumRetryAttempts: number } }>;
    assert.equal(target?.RetryPolicy?.MaximumRetryAttempts, 0);
  });

  it("may only query the outcomes table's by-status index (no table access, no write)", () => {
    const dynamo = statementsOf(template, fn).filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith("dynamodb:")),
    );

    assert.deepEqual(dynamo.flatMap(actionsOf), ["dynamodb:Query"]);
    assert.deepEqual(dynamo.flatMap(resourcesOf), [
      { "Fn::Join": ["", [{ "Fn::GetAtt": [tableId, "Arn"] }, "/index/by-status"]] },
    ]);
  });

  const [topicId] = only(template, "AWS::SNS::Topic");

  it("has one alarm per policy on PolicyDrift above the threshold at an hourly check, to the alarm topic", () => {
    for (const policy of stack.policies) {
      const [, alarm] = only(template, "AWS::CloudWatch::Alarm", {
        MetricName: DRIFT_METRICS.policyDistance,
        Dimensions: Match.arrayWith([{ Name: DRIFT_METRICS.policyDimension, Value: policy.name }]),
      });

      assert.equal(alarm.Properties.Threshold, 0.1);
      assert.equal(alarm.Properties.ComparisonOperator, "GreaterThanThreshold");
      assert.equal(alarm.Properties.EvaluationPeriods, 1);
      assert.equal(alarm.Properties.Period, 3600);
      assert.equal(alarm.Properties.Statistic, "Maximum");
      assert.equal(alarm.Properties.Namespace, "Decisions");
      assert.equal(alarm.Properties.TreatMissingData, "notBreaching");
      assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: topicId }]);
      assert.deepEqual(alarm.Properties.OKActions, [{ Ref: topicId }]);
    }
  });

  it("takes its threshold from the knob driftAlarmThreshold, a decimal above 0 and at most 1", () => {
    const read = (value: string) =>
      readInfraSettings(new App({ context: { driftAlarmThreshold: value } }).node);

    assert.equal(read("0.25").driftAlarmThreshold, 0.25);
    assert.throws(() => read("2"), /driftAlarmThreshold/);
    assert.throws(() => read("0"), /driftAlarmThreshold/);
  });

  it("leaves cdk-nag and CloudFormation's checks with nothing to report", () => {
    assert.equal(error, undefined, error?.message);
    assert.deepEqual(findings, []);
  });
});
