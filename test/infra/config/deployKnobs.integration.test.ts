/**
 * The knobs' limits through the real CDK CLI (`cdk synth` on cdk.json, which starts the app with
 * tsx): a process of its own, so it runs in `npm test`, not in the unit run. The limits themselves
 * are unit-tested in deployKnobs.test.ts.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { packageRoot } from "../../../adapter/models/packageRoot.js";

describe("knobs within AWS's limits, through the CDK CLI", () => {
  it("`cdk synth -c accelerator=gpu -c instanceProvisionTimeoutSeconds=120` exits non-zero naming the knob", () => {
    // The real CLI on cdk.json; the context is refused before any construct exists (no synth).
    const root = packageRoot();
    const output = mkdtempSync(join(tmpdir(), "decisions-cdk-cli-"));
    const run = spawnSync(
      process.execPath,
      [
        join(root, "node_modules", "aws-cdk", "bin", "cdk"),
        "synth",
        "-c",
        "accelerator=gpu",
        "-c",
        "instanceProvisionTimeoutSeconds=120",
        "--no-notices",
        "--output",
        output,
      ],
      {
        cwd: root,
        // cdk.json runs the app with `npx tsx`: the same Node as this test.
        env: {
          ...process.env,
          PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
          CDK_DISABLE_CLI_TELEMETRY: "true",
        },
        encoding: "utf8",
        timeout: 180_000,
      },
    );

    rmSync(output, { recursive: true, force: true });
    assert.notEqual(run.status, 0, run.stdout);
    assert.match(run.stderr, /instanceProvisionTimeoutSeconds: must be an integer from 300 to 3600, got 120/);
  });
});
