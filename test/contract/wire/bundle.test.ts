/**
 * The wire module bundles for a Lambda function without the engine: esbuild's metafile lists
 * every input of the bundle and every import it left external.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { build } from "esbuild";

const ENTRY = new URL("../../../contract/wire/index.ts", import.meta.url).pathname;

describe("contract/wire bundle", () => {
  it("holds no node-llama-cpp, no engine and no HTTP, and stays small", async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: "node",
      format: "esm",
      metafile: true,
      write: false,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(
      inputs.some((input) => input.includes("contract/wire/")),
      inputs.join("\n"),
    );
    assert.ok(
      inputs.some((input) => input.includes("node_modules/zod/")),
      "zod is bundled",
    );
    const forbidden = inputs.filter(
      (input) =>
        input.includes("node-llama-cpp") ||
        input.includes("adapter/engine/") ||
        input.includes("adapter/server/"),
    );
    assert.deepEqual(forbidden, []);
    const imports = Object.values(result.metafile.outputs).flatMap((output) =>
      output.imports.map((entry) => entry.path),
    );
    assert.deepEqual(
      imports.filter((path) => /^(node:)?https?$/.test(path)),
      [],
      `external imports: ${imports.join(", ")}`,
    );
    const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
    process.stdout.write(
      `# wire bundle: ${bytes} bytes, ${inputs.length} inputs, external imports: ${imports.join(", ") || "none"}\n`,
    );
    assert.ok(bytes < 1_000_000, `the wire bundle is ${bytes} bytes`);
  });
});
