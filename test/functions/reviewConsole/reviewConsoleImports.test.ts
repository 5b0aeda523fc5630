/**
 * The review console's deployed code (its Lambda entry, `functions/reviewConsole`, over its
 * operations in `core/review`) reaches the outcomes table through the table's home,
 * `core/outcomes`, as the functions do: it imports nothing of `operations/` (the operators'
 * commands), of `console/` (the page, a floor above) or of any other part but `functions/`,
 * `core/` and `contract/`.
 * esbuild bundles each file, and its metafile lists the project files it imports at run time.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

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

describe("functions/reviewConsole", () => {
  it("imports no project module outside functions/, core/ and contract/", async () => {
    const { metafile } = await build({
      entryPoints: tsFiles("functions/reviewConsole"),
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
    const outside = reached.filter((path) => !/^(functions|core|contract)\//.test(path));

    assert.ok(
      reached.includes("core/review/ReviewApi.ts") && reached.includes("functions/reviewConsole/handler.ts"),
    );
    assert.ok(
      reached.includes("core/outcomes/reviewOutcome.ts"),
      "a review is written through the outcomes table's home",
    );
    assert.deepEqual(outside, []);
  });
});
