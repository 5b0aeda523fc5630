/**
 * The batch jobs' Lambda functions (results writer, completion enrichment, jobs monitor) bundled as
 * CDK's NodejsFunction builds them (esbuild: bundle, platform node, format esm): no node-llama-cpp
 * (nor the engine) inside, and each bundle starts — refusing a missing variable by name, exporting
 * its handler otherwise.
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

/** Each handler, the variables it needs, and the message of their absence (none: it reads none). */
const HANDLERS = [
  {
    name: "results",
    entry: "functions/results/handler.ts",
    env: { JOBS_TABLE: "jobs" },
    refusal: /JOBS_TABLE is required/,
  },
  { name: "jobEvents", entry: "functions/jobEvents/handler.ts", env: {}, refusal: undefined },
  {
    name: "jobsMonitor",
    entry: "functions/jobsMonitor/handler.ts",
    env: { JOBS_TABLE: "jobs" },
    refusal: /JOBS_TABLE is required/,
  },
] as const;

describe("the batch jobs' function bundles", () => {
  let folder: string;
  const bundles = new Map<string, { file: string; metafile: Metafile }>();

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "job-bundles-"));
    for (const handler of HANDLERS) {
      const file = join(folder, handler.name, "index.mjs");
      bundles.set(handler.name, { file, metafile: await bundleAsNodejsFunction(handler.entry, file) });
    }
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("contain no node-llama-cpp and no engine", () => {
    for (const [name, { metafile }] of bundles) {
      const inputs = Object.keys(metafile.inputs);
      assert.ok(inputs.length > 1, name);
      assert.deepEqual(
        inputs.filter((input) => /node-llama-cpp|adapter\/engine\/|adapter\/server\//.test(input)),
        [],
        name,
      );
    }
  });

  it("refuse to start without their variables, naming them, and export a handler with them set", async () => {
    for (const handler of HANDLERS) {
      const file = bundles.get(handler.name)?.file ?? "";
      const importIt = [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(file)}); console.log(typeof m.handler);`,
      ];
      const base = { PATH: process.env.PATH ?? "", AWS_REGION: "us-east-1" };
      if (handler.refusal !== undefined) {
        const error = (await run(process.execPath, importIt, { env: base }).catch((e: unknown) => e)) as {
          code?: number;
          stderr?: string;
        };
        assert.notEqual(error.code, undefined, `${handler.name} started without its variables`);
        assert.match(error.stderr ?? "", handler.refusal, handler.name);
      }
      const { stdout } = await run(process.execPath, importIt, { env: { ...base, ...handler.env } });
      assert.equal(stdout.trim(), "function", handler.name);
    }
  });
});
