import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { App, Duration, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { PipelineFunction } from "../../../infra/index.js";
import { HANDLER_ENTRIES, PROJECT_ROOT } from "../synthDecisionsStack.js";

const run = promisify(execFile);

/** Bundles one handler as the stack does (local esbuild, no Docker) and returns the bundle's folder. */
function bundle(entry: string, outdir: string): string {
  const app = new App({ outdir });
  const stack = new Stack(app, "Bundle");
  new PipelineFunction(stack, "Fn", {
    entry,
    projectRoot: PROJECT_ROOT,
    timeout: Duration.seconds(30),
    memorySize: 512,
    environment: {},
    logRetention: RetentionDays.ONE_WEEK,
    description: "bundling test",
  });
  const template = Template.fromStack(stack);
  const [fn] = Object.values(template.findResources("AWS::Lambda::Function")) as Array<{
    Properties: { Code: { S3Key: string } };
  }>;
  const key = fn?.Properties.Code.S3Key;
  assert.ok(key?.endsWith(".zip") === true, "the function's code is a file asset");
  return join(outdir, `asset.${key.slice(0, -".zip".length)}`);
}

const HANDLER_ENVIRONMENTS = {
  decide: { OUTCOMES_TABLE: "outcomes", ENDPOINT_NAME: "decisions" },
  ingest: {
    OUTCOMES_TABLE: "outcomes",
    WORK_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/work",
  },
} as const;

describe("PipelineFunction bundling", () => {
  for (const name of ["decide", "ingest"] as const) {
    it(`bundles the ${name} handler into one ES module that loads in Node with only the policies beside it`, async () => {
      const outdir = mkdtempSync(join(tmpdir(), "decisions-bundle-"));
      try {
        const folder = bundle(HANDLER_ENTRIES[name], outdir);

        const files = readdirSync(folder).sort();
        assert.ok(files.includes("index.mjs"), JSON.stringify(files));
        const policies = readdirSync(join(folder, "policies"));
        const expected = readdirSync(join(PROJECT_ROOT, "policies")).filter((file) => file.endsWith(".yaml"));
        assert.deepEqual(policies.sort(), expected.sort());
        assert.ok(!existsSync(join(folder, "node_modules")), "nothing is left outside the bundle");
        // Load the bundle with no node_modules in reach: its handler is built at import (top-level await).
        const probe = `const m = await import(${JSON.stringify(join(folder, "index.mjs"))}); if (typeof m.handler !== "function") process.exit(3);`;
        await run(process.execPath, ["--input-type=module", "-e", probe], {
          cwd: folder,
          env: {
            PATH: process.env.PATH,
            AWS_REGION: "us-east-1",
            POLICY_DIR: join(folder, "policies"),
            ...HANDLER_ENVIRONMENTS[name],
          },
        });
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    });
  }
});
