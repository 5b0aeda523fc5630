/**
 * The decide function bundled as CDK's NodejsFunction builds it (esbuild: bundle, platform node,
 * format esm, target node22): no node-llama-cpp (nor the engine) inside, and the bundle starts —
 * refusing a missing variable by name, loading the policies copied beside it otherwise.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import type { Metafile } from "esbuild";
import { bundleAsNodejsFunction } from "../../support/bundleAsNodejsFunction.js";

const run = promisify(execFile);

describe("the decide function's bundle", () => {
  let folder: string;
  let metafile: Metafile;
  let bundle: string;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "decide-bundle-"));
    bundle = join(folder, "index.mjs");
    metafile = await bundleAsNodejsFunction("functions/decide/handler.ts", bundle);
    await cp("policies", join(folder, "policies"), { recursive: true });
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("contains no node-llama-cpp and no engine, and reports its size", async () => {
    const inputs = Object.keys(metafile.inputs);
    assert.ok(
      inputs.some((input) => input.includes("@middy/core")),
      "the bundle has its dependencies",
    );
    assert.deepEqual(
      inputs.filter((input) => /node-llama-cpp|adapter\/engine\/|adapter\/server\//.test(input)),
      [],
    );
    const { size } = await stat(bundle);
    console.log(`decide bundle: ${(size / 1024).toFixed(0)} KiB, ${inputs.length} inputs`);
    assert.ok(size < 5 * 1024 * 1024, `${size} bytes`);
  });

  it("refuses to start without OUTCOMES_TABLE and ENDPOINT_NAME, naming them", async () => {
    const error = await run(process.execPath, [bundle], { env: { PATH: process.env.PATH ?? "" } }).catch(
      (e: unknown) => e as { code: number; stderr: string },
    );
    assert.notEqual((error as { code?: number }).code, undefined);
    assert.match(
      (error as { stderr: string }).stderr,
      /OUTCOMES_TABLE is required; ENDPOINT_NAME is required/,
    );
  });

  it("starts with its variables set and the policies beside it", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(bundle)}); console.log(typeof m.handler);`,
      ],
      {
        env: {
          PATH: process.env.PATH ?? "",
          OUTCOMES_TABLE: "outcomes",
          ENDPOINT_NAME: "decisions",
          AWS_REGION: "us-east-1",
        },
      },
    );
    assert.equal(stdout.trim(), "function");
  });
});
