/**
 * The policy module is bundled into the decide function: it must not pull in the engine
 * (node-llama-cpp) or an HTTP server.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

describe("core/policy imports", () => {
  it("bundles without node-llama-cpp, the adapter or node:http", async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL("../../../core/policy/index.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });

    const inputs = Object.keys(result.metafile.inputs);
    const externals = Object.values(result.metafile.inputs).flatMap((input) =>
      input.imports.filter((item) => item.external).map((item) => item.path),
    );
    assert.ok(inputs.some((path) => path.includes("@marcbachmann/cel-js")));
    assert.deepEqual(
      inputs.filter((path) => /node-llama-cpp|adapter\/(?!wire\/)/.test(path)),
      [],
    );
    assert.deepEqual(
      externals.filter((path) => /^(node:)?https?$/.test(path)),
      [],
    );
  });
});
