import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every TypeScript file under cli/, relative to the repository. */
function cliFiles(folder = join(ROOT, "cli")): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? cliFiles(join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [relative(ROOT, join(folder, entry.name))]
        : [],
  );
}

/** The static imports between cli/ files (dynamic imports left out: they load on demand). */
async function importGraph(): Promise<Map<string, string[]>> {
  const { metafile } = await build({
    entryPoints: cliFiles(),
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
  const graph = new Map<string, string[]>();
  for (const [path, input] of Object.entries((metafile as Metafile).inputs)) {
    if (!path.startsWith("cli/")) continue;
    const targets = input.imports
      .filter((imported) => imported.kind === "import-statement" && imported.path.startsWith("cli/"))
      .map((imported) => imported.path);
    graph.set(path, targets);
  }
  return graph;
}

describe("the CLI's modules", () => {
  it("import each other without a cycle", async () => {
    const graph = await importGraph();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (path: string, stack: string[]): void => {
      if (stack.includes(path)) {
        cycles.push([...stack.slice(stack.indexOf(path)), path].join(" → "));
        return;
      }
      if (done.has(path)) return;
      for (const next of graph.get(path) ?? []) visit(next, [...stack, path]);
      done.add(path);
    };

    for (const path of graph.keys()) visit(path, []);

    assert.ok(graph.size >= 10, `${graph.size} files`);
    assert.deepEqual(cycles, []);
  });

  it("keep every command module out of what main.ts imports", async () => {
    const graph = await importGraph();
    const reached = new Set<string>();
    const walk = (path: string): void => {
      if (reached.has(path)) return;
      reached.add(path);
      for (const next of graph.get(path) ?? []) walk(next);
    };

    walk("cli/main.ts");

    assert.ok(reached.has("cli/commandRegistry.ts"));
    assert.deepEqual(
      [...reached].filter((path) => path.startsWith("cli/commands/")),
      [],
    );
  });
});
