/**
 * The interactive lane's batch as deployed: every record of an invocation is in flight at once, so
 * no incident waits inside an invocation behind another's endpoint call (on CPU one evaluation takes
 * up to about 19 s at p95; ten in a row outlast the function's timeout).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { laneBatchSize } from "../../infra/capacity/laneBatchSize.js";
import { synthVariant, type VariantName } from "./synthVariant.js";

interface Mapping {
  Properties: { BatchSize?: number; FunctionName: { Ref: string } };
}
interface LambdaFunction {
  Properties: { Environment?: { Variables?: Record<string, unknown> } };
}

function laneSettings(variant: VariantName, lane: string): { batchSize: number; groups: number } {
  const template = synthVariant(variant).template;
  const functions = template.findResources("AWS::Lambda::Function") as Record<string, LambdaFunction>;
  const [functionId, decide] =
    Object.entries(functions).find(([, fn]) => fn.Properties.Environment?.Variables?.LANE === lane) ?? [];
  assert.ok(functionId !== undefined && decide !== undefined, `the ${lane} lane's decide function`);
  const mappings = Object.values(template.findResources("AWS::Lambda::EventSourceMapping")) as Mapping[];
  const mapping = mappings.find((candidate) => candidate.Properties.FunctionName.Ref === functionId);
  assert.ok(mapping !== undefined, `the ${lane} lane's event source`);
  return {
    batchSize: mapping.Properties.BatchSize ?? 10,
    groups: Number(decide.Properties.Environment?.Variables?.MAX_CONCURRENT_GROUPS),
  };
}

describe("the interactive lane's batch", () => {
  for (const variant of ["cpu", "gpu"] as const) {
    it(`is no larger than the calls one invocation runs at once (${variant})`, () => {
      const { batchSize, groups } = laneSettings(variant, "interactive");

      assert.ok(groups >= 1);
      assert.ok(batchSize <= groups, `interactive batch ${batchSize} > ${groups} group(s) per invocation`);
    });
  }

  it("leaves the bulk lane's batch at the knob", () => {
    assert.equal(laneSettings("cpu", "bulk").batchSize, 10);
    assert.equal(laneBatchSize("bulk", 10, 1), 10);
    assert.equal(laneBatchSize("interactive", 10, 3), 3);
    assert.equal(laneBatchSize("interactive", 2, 3), 2);
  });
});
