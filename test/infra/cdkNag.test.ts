import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Validations } from "aws-cdk-lib";
import { Queue } from "aws-cdk-lib/aws-sqs";
import type { IConstruct } from "constructs";
import { type SynthOptions, synthDecisionsStack } from "./synthDecisionsStack.js";

const STANDARD_IMAGE = `763104351884.dkr.ecr.us-east-1.amazonaws.com/llama-cpp@sha256:${"0f".repeat(32)}`;

interface NagOutcome {
  /** The error synth threw, if any. */
  error: Error | undefined;
  /** Rule ids of the AwsSolutions violations in the validation report. */
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
    const violations = report.pluginReports
      .filter((plugin) => plugin.pluginName.includes("AwsSolutions"))
      .flatMap((plugin) => plugin.violations.map((violation) => violation.ruleName));
    const acknowledgements = synthesised.stack.node.findAll().flatMap((construct) =>
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
    return { error, violations, acknowledgements };
  } finally {
    synthesised.dispose();
  }
}

function reasonText(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (typeof reason === "object" && reason !== null && "reason" in reason) return String(reason.reason);
  return "";
}

describe("cdk-nag AwsSolutions", () => {
  for (const [name, context] of [
    ["the default context", {}],
    [
      "GPU pools, the standard endpoint and an alarm e-mail",
      {
        accelerator: "gpu",
        standardEndpoint: "true",
        standardImage: STANDARD_IMAGE,
        alarmEmail: "ops@example.com",
      },
    ],
  ] as const) {
    it(`finds nothing unacknowledged with ${name}, and every acknowledgement has a reason`, () => {
      const outcome = synthWithNag({ context });

      assert.equal(outcome.error, undefined, outcome.error?.message);
      assert.deepEqual(outcome.violations, []);
      const nagAcknowledgements = outcome.acknowledgements.filter((ack) => ack.id.includes("AwsSolutions-"));
      assert.ok(nagAcknowledgements.length > 0);
      for (const ack of nagAcknowledgements) {
        assert.ok(reasonText(ack.reason).length >= 40, `${ack.path} ${ack.id} needs a reason`);
      }
    });
  }

  it("fails synth on a finding nobody acknowledged", () => {
    const outcome = synthWithNag({}, (stack) => {
      new Queue(stack, "PlantedQueue");
    });

    assert.ok(outcome.error instanceof Error);
    assert.ok(outcome.violations.includes("AwsSolutions-SQS3"), JSON.stringify(outcome.violations));
    assert.ok(outcome.violations.includes("AwsSolutions-SQS4"), JSON.stringify(outcome.violations));
  });
});
