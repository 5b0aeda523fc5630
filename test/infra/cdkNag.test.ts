import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Validations } from "aws-cdk-lib";
import { CfnEndpointConfig } from "aws-cdk-lib/aws-sagemaker";
import { Queue } from "aws-cdk-lib/aws-sqs";
import type { IConstruct } from "constructs";
import { CDK_JSON_FEATURE_FLAGS, type SynthOptions, synthDecisionsStack } from "./synthDecisionsStack.js";
import { synthVariant, VARIANTS } from "./synthVariant.js";

interface NagOutcome {
  /** The error synth threw, if any. */
  error: Error | undefined;
  /** Rule ids of every plugin's violations in the validation report (cdk-nag, CloudFormation). */
  violations: string[];
  /** Every acknowledgement recorded in the construct tree: rule id → reason. */
  acknowledgements: Array<{ path: string; id: string; reason: unknown }>;
}

function synthWithNag(options: SynthOptions, plant?: (scope: IConstruct) => void): NagOutcome {
  const synthesised = synthDecisionsStack({ ...options, nag: true });
  try {
    plant?.(synthesised.stack);
    let error: Error | undefined;
    try {
      synthesised.app.synth();
    } catch (caught) {
      error = caught as Error;
    }
    const reportPath = join(synthesised.outdir, "validation-report.json");
    const report = existsSync(reportPath)
      ? (JSON.parse(readFileSync(reportPath, "utf8")) as {
          pluginReports: Array<{ pluginName: string; violations: Array<{ ruleName: string }> }>;
        })
      : { pluginReports: [] };
    const violations = report.pluginReports.flatMap((plugin) =>
      plugin.violations.map((violation) => violation.ruleName),
    );
    const acknowledgements = acknowledgementsOf(synthesised.stack);
    return { error, violations, acknowledgements };
  } finally {
    synthesised.dispose();
  }
}

function acknowledgementsOf(stack: IConstruct): NagOutcome["acknowledgements"] {
  return stack.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, unknown>).map(([id, reason]) => ({
          path: construct.node.path,
          id,
          reason,
        })),
      ),
  );
}

function reasonText(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (typeof reason === "object" && reason !== null && "reason" in reason) return String(reason.reason);
  return "";
}

describe("validation at synth: cdk-nag AwsSolutions and CloudFormation's own checks", () => {
  for (const name of ["cpu", "gpu", "standard", "standardHub", "production", "shadow"] as const) {
    it(`finds nothing with the ${name} variant (${JSON.stringify(VARIANTS[name])}), and every acknowledgement has a reason`, () => {
      const variant = synthVariant(name, { nag: true });

      assert.equal(variant.error, undefined, variant.error?.message);
      // Every plugin, CloudFormation validation included (its findings fail the synth: cdk.json
      // sets @aws-cdk/core:validateAgainstDefaultRules).
      assert.deepEqual(variant.findings, []);
      const nagAcknowledgements = acknowledgementsOf(variant.stack).filter((ack) =>
        ack.id.includes("AwsSolutions-"),
      );
      assert.ok(nagAcknowledgements.length > 0);
      for (const ack of nagAcknowledgements) {
        assert.ok(reasonText(ack.reason).length >= 40, `${ack.path} ${ack.id} needs a reason`);
      }
    });
  }

  it("fails synth on a finding nobody acknowledged, cdk-nag's or CloudFormation's", () => {
    assert.equal(CDK_JSON_FEATURE_FLAGS["@aws-cdk/core:validateAgainstDefaultRules"], true);
    const outcome = synthWithNag({}, (stack) => {
      new Queue(stack, "PlantedQueue");
      // Below SageMaker's minimum of 300 s: what the knob refuses, planted past it.
      const config = stack.node.findAll().find((construct) => construct instanceof CfnEndpointConfig);
      assert.ok(config instanceof CfnEndpointConfig);
      config.addPropertyOverride("ProductionVariants.0.VariantInstanceProvisionTimeoutInSeconds", 120);
    });

    assert.ok(outcome.error instanceof Error);
    assert.ok(outcome.violations.includes("AwsSolutions-SQS3"), JSON.stringify(outcome.violations));
    assert.ok(outcome.violations.includes("AwsSolutions-SQS4"), JSON.stringify(outcome.violations));
    assert.ok(outcome.violations.includes("F3034"), JSON.stringify(outcome.violations));
  });
});
