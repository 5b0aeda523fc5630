/**
 * The shadow step's candidate endpoint in the CDK app: off by default (no resource, no variable,
 * no permission: it costs nothing), and with `shadowModelDataUrl` one network-isolated,
 * one-instance endpoint on the candidate model whose name each decide function gets as
 * `SHADOW_ENDPOINT_NAME` and may invoke.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Template } from "aws-cdk-lib/assertions";
import { synthVariant } from "./synthVariant.js";
import { actionsOf, laneResources, type Resource, resourcesOf, statementsOf } from "./templateQueries.js";

const LANES = ["interactive", "bulk"] as const;

function resourcesOfType(template: Template, type: string): [string, Resource][] {
  return Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(
    ([, resource]) => resource.Type === type,
  );
}

/** The resources the decide function of `lane` may invoke. */
function invocable(template: Template, lane: string): unknown[] {
  const { fn } = laneResources(template, lane);
  return statementsOf(template, fn)
    .filter((statement) => actionsOf(statement).includes("sagemaker:InvokeEndpoint"))
    .flatMap((statement) => resourcesOf(statement));
}

describe("the candidate endpoint of the shadow step", () => {
  it("is not there by default: one endpoint, no SHADOW_ENDPOINT_NAME, leave to invoke the decision endpoint only", () => {
    const { template } = synthVariant("cpu");

    assert.equal(resourcesOfType(template, "AWS::SageMaker::Endpoint").length, 1);
    assert.equal(resourcesOfType(template, "AWS::SageMaker::Model").length, 1);
    assert.equal(resourcesOfType(template, "AWS::SageMaker::EndpointConfig").length, 1);
    assert.ok(!Object.keys(template.toJSON().Resources).some((id) => id.startsWith("ShadowEndpoint")));
    assert.equal(template.toJSON().Outputs?.ShadowEndpointName, undefined);
    for (const lane of LANES) {
      assert.equal(laneResources(template, lane).variables.SHADOW_ENDPOINT_NAME, undefined, lane);
      assert.equal(invocable(template, lane).length, 1, lane);
    }
  });

  it("with shadowModelDataUrl: one isolated instance on the candidate model, named to and invocable by each decide function", () => {
    const { template } = synthVariant("shadow");

    const endpoints = resourcesOfType(template, "AWS::SageMaker::Endpoint");
    assert.equal(endpoints.length, 2);
    const [shadowId] = endpoints.find(([id]) => id.startsWith("ShadowEndpoint")) ?? [];
    assert.ok(shadowId !== undefined);
    const [, model] =
      resourcesOfType(template, "AWS::SageMaker::Model").find(([id]) => id.startsWith("ShadowEndpoint")) ??
      [];
    assert.ok(model !== undefined);
    const container = model.Properties.PrimaryContainer as {
      ModelDataUrl: unknown;
      Environment: Record<string, string>;
    };
    assert.equal(model.Properties.EnableNetworkIsolation, true);
    assert.match(JSON.stringify(container.ModelDataUrl), /candidate\/model\.tar\.gz/);
    assert.equal(container.Environment.SEMIF_INTERACTIVE_RESERVE, "0");
    const [, config] =
      resourcesOfType(template, "AWS::SageMaker::EndpointConfig").find(([id]) =>
        id.startsWith("ShadowEndpoint"),
      ) ?? [];
    const variants = config?.Properties.ProductionVariants as {
      InitialInstanceCount: number;
      InstanceType: string;
    }[];
    assert.deepEqual(
      variants.map((variant) => [variant.InitialInstanceCount, variant.InstanceType]),
      [[1, "ml.c6i.8xlarge"]],
    );
    // Nothing scales it: the one scalable target is the decision endpoint's.
    assert.equal(resourcesOfType(template, "AWS::ApplicationAutoScaling::ScalableTarget").length, 1);
    const name = { "Fn::GetAtt": [shadowId, "EndpointName"] };
    assert.deepEqual(template.toJSON().Outputs?.ShadowEndpointName?.Value, name);
    for (const lane of LANES) {
      assert.deepEqual(laneResources(template, lane).variables.SHADOW_ENDPOINT_NAME, name, lane);
      const arns = invocable(template, lane).map((arn) => JSON.stringify(arn));
      assert.equal(arns.length, 2, lane);
      assert.ok(
        arns.some((arn) => arn.includes(`"Fn::GetAtt":["${shadowId}","EndpointName"]`)),
        lane,
      );
    }
  });
});
