/** The goal scaling policy and the capacity controller in the CDK app: metric, target, cooldowns, environment, permissions, schedule, alarm. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match, type Template } from "aws-cdk-lib/assertions";
import { LANES } from "../../contract/lanes/lanes.js";
import { synthVariant } from "./synthVariant.js";
import {
  actionsOf,
  laneResources,
  only,
  type Resource,
  resourcesOf,
  statementsOf,
} from "./templateQueries.js";

/** The capacity controller's function (its `POWERTOOLS_SERVICE_NAME`). */
function controllerOf(template: Template): [string, Resource, Record<string, unknown>] {
  const [id, fn] = only(template, "AWS::Lambda::Function", {
    Environment: {
      Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: "capacity-controller" }),
    },
  });
  return [id, fn, (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables];
}

/** The logical id of each lane's event source mapping. */
function mappingIdOf(template: Template, lane: string): string {
  const { functionId } = laneResources(template, lane);
  return only(template, "AWS::Lambda::EventSourceMapping", {
    StartingPosition: Match.absent(),
    FunctionName: { Ref: functionId },
  })[0];
}

describe("goal-based scaling and the capacity controller in the CDK app", () => {
  const { template, stack } = synthVariant("cpu");
  const [controllerId, controller, variables] = controllerOf(template);

  it("scales the endpoint on GoalCapacityRatio as published by the controller, target 1, the scale-out cooldown outlasting an instance start", () => {
    const [targetId] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget");
    const [, policy] = only(template, "AWS::ApplicationAutoScaling::ScalingPolicy", {
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({
        CustomizedMetricSpecification: Match.anyValue(),
      }),
    });
    const tracking = policy.Properties.TargetTrackingScalingPolicyConfiguration as Record<string, unknown>;

    assert.equal(policy.Properties.PolicyType, "TargetTrackingScaling");
    assert.deepEqual(policy.Properties.ScalingTargetId, { Ref: targetId });
    assert.equal(tracking.TargetValue, 1);
    assert.deepEqual(tracking.CustomizedMetricSpecification, {
      MetricName: "GoalCapacityRatio",
      Namespace: "Decisions",
      Dimensions: [
        { Name: "service", Value: "capacity-controller" },
        { Name: "endpoint", Value: stack.decisionEndpoint.physicalName },
      ],
      Statistic: "Average",
    });
    assert.equal(tracking.DisableScaleIn, undefined, "scales back in once the backlog drains");
    // instanceStartSeconds (360) + one data point: no cooldown ends while an instance it added starts
    assert.equal(tracking.ScaleOutCooldown, 420);
    assert.equal(tracking.ScaleInCooldown, 900);
    // The controller publishes in the same namespace, as the same service.
    assert.equal(variables.POWERTOOLS_METRICS_NAMESPACE, "Decisions");
    assert.equal(variables.POWERTOOLS_SERVICE_NAME, "capacity-controller");
  });

  it("gives the controller the endpoint, its pool's requests per instance, the reserve, and each lane's queue, event source, groups and floor", () => {
    const endpointId = only(template, "AWS::SageMaker::Endpoint")[0];

    assert.deepEqual(variables.ENDPOINT_NAME, { "Fn::GetAtt": [endpointId, "EndpointName"] });
    assert.equal(variables.VARIANT_REQUESTS_PER_INSTANCE, "AllTraffic=4");
    assert.equal(variables.INTERACTIVE_RESERVE_PER_INSTANCE, "2");
    // The capacity rule's goals and stated assumptions, from the knobs.
    assert.equal(variables.BULK_GOAL_SECONDS, "3600");
    assert.equal(variables.INTERACTIVE_GOAL_SECONDS, "60");
    assert.equal(variables.MILLISECONDS_PER_LINE, "312");
    assert.equal(variables.INSTANCE_START_SECONDS, "360");
    assert.equal(variables.MAX_INSTANCES, "2");
    for (const lane of LANES) {
      const prefix = lane.toUpperCase();
      const { queueId, mapping, variables: decide } = laneResources(template, lane);
      assert.deepEqual(variables[`${prefix}_QUEUE_URL`], { Ref: queueId });
      assert.deepEqual(variables[`${prefix}_EVENT_SOURCE_UUID`], { Ref: mappingIdOf(template, lane) });
      // Its groups are the decide function's; its floor is the mapping's deployed maximum concurrency.
      assert.equal(variables[`${prefix}_GROUPS_PER_INVOCATION`], decide.MAX_CONCURRENT_GROUPS);
      assert.equal(
        variables[`${prefix}_MIN_CONCURRENCY`],
        String((mapping.Properties.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency),
      );
    }
    // One CPU instance at minimum: 2 invocations × 1 group per lane.
    assert.deepEqual([variables.INTERACTIVE_MIN_CONCURRENCY, variables.BULK_MIN_CONCURRENCY], ["2", "2"]);
  });

  it("lets the controller describe that endpoint, read those two queues' attributes and read and update those two event sources, nothing else", () => {
    const statements = statementsOf(template, controller);
    const endpointId = only(template, "AWS::SageMaker::Endpoint")[0];
    const byAction = new Map<string, string[]>();
    for (const statement of statements) {
      assert.notEqual(statement.Effect, "Deny");
      for (const action of actionsOf(statement)) {
        byAction.set(action, [
          ...(byAction.get(action) ?? []),
          ...resourcesOf(statement).map((resource) => JSON.stringify(resource)),
        ]);
      }
    }

    assert.deepEqual([...byAction.keys()].sort(), [
      "lambda:GetEventSourceMapping",
      "lambda:UpdateEventSourceMapping",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
      "sagemaker:DescribeEndpoint",
      "sqs:GetQueueAttributes",
    ]);
    const [endpointArn, ...moreEndpoints] = byAction.get("sagemaker:DescribeEndpoint") ?? [];
    assert.deepEqual(moreEndpoints, []);
    assert.match(endpointArn ?? "", /endpoint\//);
    assert.ok(endpointArn?.includes(`{"Fn::GetAtt":["${endpointId}","EndpointName"]}`), endpointArn);
    assert.deepEqual(
      (byAction.get("sqs:GetQueueAttributes") ?? []).sort(),
      LANES.map((lane) =>
        JSON.stringify({ "Fn::GetAtt": [laneResources(template, lane).queueId, "Arn"] }),
      ).sort(),
    );
    for (const action of ["lambda:GetEventSourceMapping", "lambda:UpdateEventSourceMapping"]) {
      const arns = byAction.get(action) ?? [];
      assert.equal(arns.length, 2, `${action} on the two mappings`);
      for (const lane of LANES) {
        const arn = arns.find((candidate) => candidate.includes(`{"Ref":"${mappingIdOf(template, lane)}"}`));
        assert.ok(arn !== undefined, `${action} on the ${lane} mapping`);
        assert.match(arn, /:event-source-mapping:/);
      }
    }
  });

  it("runs the controller every minute, without retries", () => {
    const [, rule] = only(template, "AWS::Events::Rule", {
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [controllerId, "Arn"] } })],
    });

    assert.equal(rule.Properties.ScheduleExpression, "rate(1 minute)");
    assert.deepEqual(
      (rule.Properties.Targets as Array<{ RetryPolicy?: unknown }>).map((target) => target.RetryPolicy),
      [{ MaximumRetryAttempts: 0 }],
    );
  });

  it("alarms on the pipeline's topic when the controller fails or does not run for 5 minutes, and shows capacity on the dashboard", () => {
    const [, errors] = only(template, "AWS::CloudWatch::Alarm", {
      MetricName: "Errors",
      Dimensions: [{ Name: "FunctionName", Value: { Ref: controllerId } }],
    });
    const topicId = only(template, "AWS::SNS::Topic")[0];

    assert.deepEqual(
      [
        errors.Properties.Period,
        errors.Properties.EvaluationPeriods,
        errors.Properties.Threshold,
        errors.Properties.TreatMissingData,
      ],
      [60, 5, 1, "breaching"],
    );
    assert.deepEqual(errors.Properties.AlarmActions, [{ Ref: topicId }]);
    const [, dashboard] = only(template, "AWS::CloudWatch::Dashboard");
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const metric of [
      "GoalInstances",
      "BacklogPerInstance",
      "InServiceInstances",
      "LaneMaxConcurrency",
    ]) {
      assert.ok(body.includes(metric), `the dashboard shows ${metric}`);
    }
  });
});

describe("the capacity controller with GPU pools and the CPU fallback pool", () => {
  const { template } = synthVariant("gpu");
  const [, , variables] = controllerOf(template);

  it("counts each instance as the smallest pool's (a CPU fallback instance admits 4, a GPU one 9)", () => {
    assert.equal(variables.VARIANT_REQUESTS_PER_INSTANCE, "AllTraffic=4");
    assert.equal(variables.INTERACTIVE_RESERVE_PER_INSTANCE, "2");
  });
});
