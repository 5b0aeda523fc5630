/**
 * The chain of timeouts as deployed: SageMaker's own 60 s invocation limit starts first, so the
 * adapter's deadline (`SEMIF_REQUEST_TIMEOUT_MS` of every model the stack creates) must end
 * {@link ADAPTER_DEADLINE_MARGIN_SECONDS} before it, or a call that waits its whole deadline gets
 * SageMaker's timeout instead of the adapter's answer.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { App } from "aws-cdk-lib";
import {
  ADAPTER_DEADLINE_MARGIN_SECONDS,
  MAX_ADAPTER_DEADLINE_SECONDS,
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS,
} from "../../contract/index.js";
import { InfraConfigError, readInfraSettings } from "../../infra/index.js";
import { PROJECT_ROOT } from "./synthDecisionsStack.js";
import { synthVariant, type VariantName } from "./synthVariant.js";

function adapterDeadlinesMs(variant: VariantName): number[] {
  const models = Object.values(synthVariant(variant).template.findResources("AWS::SageMaker::Model"));
  return models.flatMap((model) => {
    const environment = (model.Properties.PrimaryContainer as { Environment?: Record<string, string> })
      .Environment;
    const deadline = environment?.SEMIF_REQUEST_TIMEOUT_MS;
    return deadline === undefined ? [] : [Number(deadline)];
  });
}

describe("the timeout chain", () => {
  it("keeps a margin between the adapter's deadline and SageMaker's 60 s", () => {
    assert.equal(
      MAX_ADAPTER_DEADLINE_SECONDS,
      SAGEMAKER_INVOCATION_TIMEOUT_SECONDS - ADAPTER_DEADLINE_MARGIN_SECONDS,
    );
    assert.ok(ADAPTER_DEADLINE_MARGIN_SECONDS > 0);
  });

  for (const variant of ["cpu", "gpu", "shadow"] as const) {
    it(`gives every adapter model of the ${variant} variant a deadline below SageMaker's limit, with the margin`, () => {
      const deadlines = adapterDeadlinesMs(variant);

      assert.ok(deadlines.length > 0);
      for (const deadline of deadlines)
        assert.ok(
          deadline <= MAX_ADAPTER_DEADLINE_SECONDS * 1000,
          `SEMIF_REQUEST_TIMEOUT_MS ${deadline} is not ${ADAPTER_DEADLINE_MARGIN_SECONDS} s below SageMaker's ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s`,
        );
    });
  }

  it("sets cdk.json's deadlines within the limit", () => {
    const context = (
      JSON.parse(readFileSync(join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, number> }
    ).context;
    assert.ok((context.cpuRequestTimeoutSeconds ?? 0) <= MAX_ADAPTER_DEADLINE_SECONDS);
    assert.ok((context.gpuRequestTimeoutSeconds ?? 0) <= MAX_ADAPTER_DEADLINE_SECONDS);
  });

  it("refuses a deadline that reaches SageMaker's limit, naming the knob", () => {
    for (const knob of ["cpuRequestTimeoutSeconds", "gpuRequestTimeoutSeconds"]) {
      assert.throws(
        () => readInfraSettings(new App({ context: { [knob]: SAGEMAKER_INVOCATION_TIMEOUT_SECONDS } }).node),
        (error: unknown) => error instanceof InfraConfigError && error.message.includes(knob),
      );
      assert.doesNotThrow(() =>
        readInfraSettings(new App({ context: { [knob]: MAX_ADAPTER_DEADLINE_SECONDS } }).node),
      );
    }
  });
});
