/**
 * contract/ depends on zod and nothing else: esbuild bundles every contract file and its metafile
 * lists what each one imports at run time (type-only imports are erased, as they are at run time).
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

/** What contract files import at run time that is neither zod nor another contract file. */
async function foreignImports(): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: tsFiles("contract"),
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
  const foreign: string[] = [];
  for (const [path, input] of Object.entries(metafile.inputs)) {
    if (!path.startsWith("contract/")) continue;
    for (const imported of input.imports) {
      const allowed = imported.external
        ? imported.path === "zod" || imported.path.startsWith("zod/")
        : imported.path.startsWith("contract/");
      if (!allowed) foreign.push(`${path} → ${imported.path}`);
    }
  }
  return foreign;
}

describe("contract/", () => {
  it("imports zod and other contract files only", async () => {
    const files = tsFiles("contract");

    const foreign = await foreignImports();

    assert.ok(files.length >= 20, `${files.length} files`);
    assert.ok(files.includes("contract/index.ts"));
    assert.deepEqual(foreign, []);
  });
});
