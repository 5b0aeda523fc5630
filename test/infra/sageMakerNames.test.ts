import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CfnTemplate, deployTargetOf, TemplateResolver } from "../../lab/rehearsal/TemplateResolver.js";
import { synthVariant, type VariantName } from "./synthVariant.js";

/** Each variant's grants on SageMaker endpoints, resolved as deployed, and the names the code calls. */
function endpointGrants(variant: VariantName) {
  const template = synthVariant(variant).template.toJSON() as CfnTemplate;
  const resolver = new TemplateResolver(template, deployTargetOf("Decisions"));
  const calledNames = new Set<string>();
  for (const id of resolver.logicalIdsOf("AWS::Lambda::Function")) {
    const variables = (
      template.Resources[id]?.Properties?.Environment as { Variables?: Record<string, unknown> }
    )?.Variables;
    for (const [variable, value] of Object.entries(variables ?? {})) {
      if (/ENDPOINT_NAME$/.test(variable)) calledNames.add(resolver.resolveString(value));
    }
  }
  const grants: { action: string; resource: string }[] = [];
  for (const id of resolver.logicalIdsOf("AWS::IAM::Policy")) {
    const document = template.Resources[id]?.Properties?.PolicyDocument as {
      Statement: { Action: string | string[]; Resource: unknown }[];
    };
    for (const statement of document.Statement) {
      const actions = [statement.Action].flat().filter((action) => action.startsWith("sagemaker:"));
      const resources = [resolver.resolve(statement.Resource)].flat().map(String);
      for (const action of actions) for (const resource of resources) grants.push({ action, resource });
    }
  }
  return {
    calledNames,
    grants,
    arnOf: (name: string) => `arn:aws:sagemaker:us-east-1:111122223333:endpoint/${name.toLowerCase()}`,
  };
}

describe("SageMaker names", () => {
  for (const variant of ["cpu", "shadow", "standard"] as const) {
    it(`grants InvokeEndpoint and DescribeEndpoint on the ARN SageMaker forms for the endpoint the code calls (${variant})`, () => {
      const { calledNames, grants, arnOf } = endpointGrants(variant);

      assert.ok(calledNames.size >= (variant === "shadow" ? 2 : 1), `names called: ${[...calledNames]}`);
      assert.ok(grants.length > 0);
      const called = new Set([...calledNames].map(arnOf));
      for (const grant of grants) {
        // IAM compares the grant with the ARN of the call case-sensitively; SageMaker forms it in lower case.
        assert.ok(
          called.has(grant.resource),
          `${grant.action} on ${grant.resource}: not an endpoint the code calls, as SageMaker names it (${[...called]})`,
        );
      }
      for (const name of calledNames)
        assert.equal(name, name.toLowerCase(), `endpoint ${name} is not lower case`);
      for (const arn of called)
        assert.ok(
          grants.some((grant) => grant.resource === arn),
          `no grant on ${arn}`,
        );
    });
  }
});
