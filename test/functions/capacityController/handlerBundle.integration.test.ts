/**
 * The capacity controller bundled as CDK's NodejsFunction builds it (esbuild: bundle, platform
 * node, format esm): the SageMaker, SQS and Lambda clients inside, no node-llama-cpp, and the
 * bundle refuses to start without its variables, naming them.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import type { Metafile } from "esbuild";
import { bundleAsNodejsFunction } from "../../support/bundleAsNodejsFunction.js";

const run = promisify(execFile);

const ENVIRONMENT = {
  ENDPOINT_NAME: "Decisions-decisions-0123abcd",
  VARIANT_REQUESTS_PER_INSTANCE: "AllTraffic=4",
  INTERACTIVE_RESERVE_PER_INSTANCE: "2",
  INTERACTIVE_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/interactive",
  BULK_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/bulk",
  INTERACTIVE_EVENT_SOURCE_UUID: "uuid-interactive",
  BULK_EVENT_SOURCE_UUID: "uuid-bulk",
  INTERACTIVE_GROUPS_PER_INVOCATION: "1",
  BULK_GROUPS_PER_INVOCATION: "1",
  INTERACTIVE_MIN_CONCURRENCY: "2",
  BULK_MIN_CONCURRENCY: "2",
  BULK_GOAL_SECONDS: "3600",
  INTERACTIVE_GOAL_SECONDS: "60",
  MILLISECONDS_PER_LINE: "312",
  INSTANCE_START_SECONDS: "360",
  MAX_INSTANCES: "20",
};

describe("the capacity controller's bundle", () => {
  let folder: string;
  let file: string;
  let metafile: Metafile;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "capacity-controller-bundle-"));
    file = join(folder, "index.mjs");
    metafile = await bundleAsNodejsFunction("functions/capacityController/handler.ts", file);
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("holds the three SDK clients it calls and no node-llama-cpp", () => {
    const inputs = Object.keys(metafile.inputs);

    for (const client of ["client-sagemaker", "client-sqs", "client-lambda"]) {
      assert.ok(
        inputs.some((input) => input.includes(`@aws-sdk/${client}/`)),
        `@aws-sdk/${client} is bundled`,
      );
    }
    assert.deepEqual(
      inputs.filter((input) => /node-llama-cpp|adapter\/engine\//.test(input)),
      [],
    );
  });

  it("refuses to start without its variables, naming them, and exports a handler with them set", async () => {
    const importIt = [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(file)}); console.log(typeof m.handler);`,
    ];
    const base = { PATH: process.env.PATH ?? "", AWS_REGION: "us-east-1" };
    const { BULK_EVENT_SOURCE_UUID: _left, ...withoutOne } = ENVIRONMENT;

    const error = (await run(process.execPath, importIt, { env: { ...base, ...withoutOne } }).catch(
      (caught: unknown) => caught,
    )) as { code?: number; stderr?: string };
    assert.notEqual(error.code, undefined, "started without BULK_EVENT_SOURCE_UUID");
    assert.match(error.stderr ?? "", /BULK_EVENT_SOURCE_UUID is required/);

    const { stdout } = await run(process.execPath, importIt, { env: { ...base, ...ENVIRONMENT } });
    assert.equal(stdout.trim(), "function");
  });
});
