/**
 * `layout=lanes-from-zero` in the CDK app: an inference component per lane on an endpoint built for
 * components, their copies as scalable targets, the goal policies on the controller's metric, the
 * bulk component's step scaling from zero and its alarm; decide naming its lane's component and
 * the controller reading both. The shared layout has none of it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Match, type Template } from "aws-cdk-lib/assertions";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { synthVariant } from "./synthVariant.js";
import {
  actionsOf,
  laneResources,
  only,
  type Resource,
  resourcesOf,
  statementsOf,
} from "./templateQueries.js";

/** The inference component whose name ends with `-<lane>`. */
function componentOf(template: Template, lane: Lane): [string, Resource, string] {
  const [id, component] = only(template, "AWS::SageMaker::InferenceComponent", {
    InferenceComponentName: Match.stringLikeRegexp(`-${lane}$`),
  });
  return [id, component, component.Properties.InferenceComponentName as string];
}

/** The scaling policies on the scalable target of `resourceId`, by policy type. */
function policiesOf(template: Template, resourceId: string): { target: Resource; policies: Resource[] } {
  const [targetId, target] = only(template, "AWS::ApplicationAutoScaling::ScalableTarget", {
    ResourceId: resourceId,
  });
  const policies = Object.values(
    template.findResources("AWS::ApplicationAutoScaling::ScalingPolicy", {
      Properties: { ScalingTargetId: { Ref: targetId } },
    }),
  ) as Resource[];
  return { target, policies };
}

/** The capacity controller's environment. */
function controllerVariables(template: Template): [Resource, Record<string, unknown>] {
  const [, fn] = only(template, "AWS::Lambda::Function", {
    Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: "capacity-controller" }) },
  });
  return [fn, (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables];
}

/** Whether a statement's resource is `arn:…:inference-component/<name>` (rendered as a join). */
function namesComponent(resource: unknown, name: string): boolean {
  return JSON.stringify(resource).includes(`:inference-component/${name}"`);
}

describe("the lanes-from-zero layout in the CDK app", () => {
  const { template } = synthVariant("fromZero");

  it("hosts the components on a variant that names no model, with the execution role and managed instance scaling from 0", () => {
    const [, config] = only(template, "AWS::SageMaker::EndpointConfig");
    const [variant, ...others] = config.Properties.ProductionVariants as Array<Record<string, unknown>>;

    assert.equal(others.length, 0);
    assert.ok(config.Properties.ExecutionRoleArn !== undefined, "an endpoint hosting components has a role");
    assert.equal(variant?.ModelName, undefined);
    assert.deepEqual(variant?.ManagedInstanceScaling, {
      Status: "ENABLED",
      MinInstanceCount: 0,
      MaxInstanceCount: 4,
    });
    assert.deepEqual(variant?.RoutingConfig, { RoutingStrategy: "LEAST_OUTSTANDING_REQUESTS" });
  });

  it("gives each lane a component named in lower case, interactive from 1 copy and bulk from 0, both on the endpoint's model", () => {
    const copies = LANES.map((lane) => {
      const [, component, name] = componentOf(template, lane);
      assert.equal(name, name.toLowerCase());
      assert.ok(name.length <= 63, `${name} fits SageMaker's 63 characters`);
      const specification = component.Properties.Specification as Record<string, unknown>;
      assert.match(JSON.stringify(specification.ModelName), /CpuModel/);
      assert.deepEqual(specification.ComputeResourceRequirements, {
        NumberOfCpuCoresRequired: 24,
        MinMemoryRequiredInMb: 49_152,
      });
      return (component.Properties.RuntimeConfig as { CopyCount: number }).CopyCount;
    });

    assert.deepEqual(copies, [1, 0]);
  });

  it("scales each component's copies on its own GoalCapacityRatio, interactive from 1 and bulk from 0, up to maxInstances", () => {
    const [, variables] = controllerVariables(template);
    const floors = LANES.map((lane) => {
      const [, , name] = componentOf(template, lane);
      const { target, policies } = policiesOf(template, `inference-component/${name}`);
      assert.equal(target.Properties.ScalableDimension, "sagemaker:inference-component:DesiredCopyCount");
      assert.equal(target.Properties.MaxCapacity, 2);
      const goal = policies.find((policy) => policy.Properties.PolicyType === "TargetTrackingScaling");
      const tracking = goal?.Properties.TargetTrackingScalingPolicyConfiguration as {
        TargetValue: number;
        CustomizedMetricSpecification: { MetricName: string; Dimensions: unknown };
      };
      assert.equal(tracking.TargetValue, 1);
      assert.equal(tracking.CustomizedMetricSpecification.MetricName, "GoalCapacityRatio");
      // The dimensions the controller publishes with: its service and the component it was told.
      assert.deepEqual(tracking.CustomizedMetricSpecification.Dimensions, [
        { Name: "service", Value: "capacity-controller" },
        { Name: "component", Value: variables[`${lane.toUpperCase()}_COMPONENT_NAME`] },
      ]);
      return target.Properties.MinCapacity;
    });

    assert.deepEqual(floors, [1, 0]);
  });

  it("adds a bulk copy by step scaling when an alarm sees NoCapacityInvocationFailures of the bulk component, and no such policy where a floor is kept", () => {
    const [, , bulk] = componentOf(template, "bulk");
    const [, , interactive] = componentOf(template, "interactive");
    const step = (name: string) =>
      policiesOf(template, `inference-component/${name}`).policies.filter(
        (policy) => policy.Properties.PolicyType === "StepScaling",
      );
    const [policyId] = Object.keys(
      template.findResources("AWS::ApplicationAutoScaling::ScalingPolicy", {
        Properties: { PolicyType: "StepScaling" },
      }),
    );
    const [, alarm] = only(template, "AWS::CloudWatch::Alarm", {
      MetricName: "NoCapacityInvocationFailures",
    });

    assert.equal(step(interactive).length, 0);
    assert.deepEqual(step(bulk)[0]?.Properties.StepScalingPolicyConfiguration, {
      AdjustmentType: "ChangeInCapacity",
      MetricAggregationType: "Maximum",
      Cooldown: 420,
      StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 1 }],
    });
    assert.equal(alarm.Properties.Namespace, "AWS/SageMaker");
    assert.deepEqual(alarm.Properties.Dimensions, [{ Name: "InferenceComponentName", Value: bulk }]);
    assert.equal(alarm.Properties.Statistic, "Sum");
    assert.equal(alarm.Properties.Period, 60);
    assert.equal(alarm.Properties.Threshold, 1);
    assert.equal(alarm.Properties.ComparisonOperator, "GreaterThanOrEqualToThreshold");
    assert.deepEqual(alarm.Properties.AlarmActions, [{ "Fn::GetAtt": [policyId, "Arn"] }]);
  });

  it("has each lane's decide function name its own component and may invoke exactly it on the endpoint", () => {
    for (const lane of LANES) {
      const [, , name] = componentOf(template, lane);
      const { fn, variables } = laneResources(template, lane);
      const invoke = statementsOf(template, fn).filter((statement) =>
        actionsOf(statement).includes("sagemaker:InvokeEndpoint"),
      );
      const resources = invoke.flatMap(resourcesOf);

      assert.equal(variables.INFERENCE_COMPONENT_NAME, name);
      assert.ok(
        resources.some((resource) => namesComponent(resource, name)),
        `${lane} may invoke ${name}`,
      );
      const other = LANES.find((candidate) => candidate !== lane) as Lane;
      assert.ok(!resources.some((resource) => namesComponent(resource, componentOf(template, other)[2])));
      assert.ok(resources.some((resource) => JSON.stringify(resource).includes(":endpoint/")));
    }
  });

  it("has the capacity controller read both components' copies", () => {
    const [fn, variables] = controllerVariables(template);
    const describe = statementsOf(template, fn).filter((statement) =>
      actionsOf(statement).includes("sagemaker:DescribeInferenceComponent"),
    );

    for (const lane of LANES) {
      const [, , name] = componentOf(template, lane);
      assert.equal(variables[`${lane.toUpperCase()}_COMPONENT_NAME`], name);
      assert.ok(describe.flatMap(resourcesOf).some((resource) => namesComponent(resource, name)));
    }
  });

  it("shows on the dashboard the copies each component's goal wants, as the controller publishes them", () => {
    const [, dashboard] = only(template, "AWS::CloudWatch::Dashboard");
    const body = JSON.stringify(dashboard.Properties.DashboardBody).replaceAll('\\"', '"');

    for (const lane of LANES) {
      const [, , name] = componentOf(template, lane);
      assert.ok(
        body.includes(`"GoalInstances","component","${name}","service","capacity-controller"`),
        `GoalInstances of ${name}`,
      );
    }
  });

  it("sizes the bulk lane at minimum to the event source's floor, the interactive lane to its copy", () => {
    const bulk = laneResources(template, "bulk");
    const interactive = laneResources(template, "interactive");

    assert.deepEqual(bulk.mapping.Properties.ScalingConfig, { MaximumConcurrency: 2 });
    assert.equal(bulk.variables.MAX_CONCURRENT_GROUPS, "1");
    assert.deepEqual(interactive.mapping.Properties.ScalingConfig, { MaximumConcurrency: 2 });
  });
});

describe("the shared layout in the CDK app", () => {
  const { template } = synthVariant("cpu");

  it("has no inference component, and no decide function or controller names one", () => {
    const [, variables] = controllerVariables(template);

    template.resourceCountIs("AWS::SageMaker::InferenceComponent", 0);
    for (const lane of LANES)
      assert.equal(laneResources(template, lane).variables.INFERENCE_COMPONENT_NAME, undefined);
    assert.equal(variables.BULK_COMPONENT_NAME, undefined);
  });
});
