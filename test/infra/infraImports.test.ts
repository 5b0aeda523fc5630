/**
 * The CDK app imports only contract/ of this project: everything else it deploys (the handlers,
 * the policy loader) it names by path. esbuild bundles every infra file, and its metafile lists the
 * project files each one imports at run time.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every TypeScript file under a folder of the repository, relative to the repository. */
function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsFiles(join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [relative(ROOT, join(ROOT, folder, entry.name))]
        : [],
  );
}

describe("infra/", () => {
  it("imports no project module outside infra/ and contract/", async () => {
    const { metafile } = await build({
      entryPoints: tsFiles("infra"),
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      metafile: true,
      outdir: "out",
      platform: "node",
      format: "esm",
      packages: "external",
      logLevel: "silent",
    });

    const reached = Object.keys(metafile.inputs);
    const outside = reached.filter((path) => !path.startsWith("infra/") && !path.startsWith("contract/"));

    assert.ok(reached.includes("infra/app.ts") && reached.includes("infra/DecisionsStack.ts"));
    assert.ok(
      reached.some((path) => path.startsWith("contract/")),
      "infra reads the contract",
    );
    assert.deepEqual(outside, []);
  });
});
