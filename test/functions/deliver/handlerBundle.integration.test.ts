/**
 * The deliver function bundled as CDK's NodejsFunction builds it (esbuild: bundle, platform node,
 * format esm): standardwebhooks and the SQS and EventBridge clients inside, no node-llama-cpp; it
 * starts with its variables and the policies' secrets, and refuses to start when a target's env:
 * secret is missing, naming the target and the variable.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import type { Metafile } from "esbuild";
import { bundleAsNodejsFunction } from "../../support/bundleAsNodejsFunction.js";

const run = promisify(execFile);
const SECRET = `whsec_${Buffer.alloc(32, 6).toString("base64")}`;

describe("the deliver function's bundle", () => {
  let folder: string;
  let file: string;
  let policies: string;
  let metafile: Metafile;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "deliver-bundle-"));
    file = join(folder, "index.mjs");
    policies = join(folder, "policies");
    await mkdir(policies);
    const shipped = await readFile(join("policies", "ticket-routing.yaml"), "utf8");
    await writeFile(
      join(policies, "ticket-routing.yaml"),
      `${shipped}\ndeliver:\n  - name: helpdesk\n    url: https://helpdesk.example/hooks\n    secret: env:HELPDESK_SECRET\n    on: [decided]\n`,
    );
    metafile = await bundleAsNodejsFunction("functions/deliver/handler.ts", file);
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("holds standardwebhooks and the SQS and EventBridge clients, and no node-llama-cpp", () => {
    const inputs = Object.keys(metafile.inputs);
    for (const part of ["standardwebhooks/", "@aws-sdk/client-sqs/", "@aws-sdk/client-eventbridge/"])
      assert.ok(
        inputs.some((input) => input.includes(part)),
        `${part} is bundled`,
      );
    assert.deepEqual(
      inputs.filter((input) => /node-llama-cpp|adapter\/engine\//.test(input)),
      [],
    );
  });

  it("starts with its variables and secrets, and refuses a missing secret naming the target and the variable", async () => {
    const importIt = [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(file)}); console.log(typeof m.handler);`,
    ];
    const base = {
      PATH: process.env.PATH ?? "",
      AWS_REGION: "us-east-1",
      POLICY_DIR: policies,
      DELIVERY_DLQ_URLS: JSON.stringify({
        "ticket-routing/helpdesk": "https://sqs.us-east-1.amazonaws.com/1/dlq",
      }),
    };

    const error = (await run(process.execPath, importIt, { env: base }).catch(
      (caught: unknown) => caught,
    )) as {
      code?: number;
      stderr?: string;
    };
    assert.notEqual(error.code, undefined, "started without HELPDESK_SECRET");
    assert.match(error.stderr ?? "", /ticket-routing\/helpdesk.*HELPDESK_SECRET, which is not set/);

    const { stdout } = await run(process.execPath, importIt, { env: { ...base, HELPDESK_SECRET: SECRET } });
    assert.equal(stdout.trim(), "function");
  });
});
