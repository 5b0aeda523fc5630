import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { COMMAND_REGISTRY, loadCommand, missingParts } from "../../cli/commandRegistry.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
  devDependencies: Record<string, string>;
};
const LOCK = JSON.parse(readFileSync(`${ROOT}package-lock.json`, "utf8")) as {
  packages: Record<string, { dev?: boolean }>;
};

/** Whether a production install (`npm ci --omit=dev`, as the images do) puts the package at the top level. */
function installedInProduction(name: string): boolean {
  const entry = LOCK.packages[`node_modules/${name}`];
  return entry !== undefined && entry.dev !== true;
}

/** The package name of a bare import (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** The top-level folders of this repository and the packages a command module imports, found by bundling it. */
async function importsOf(module: string): Promise<{ parts: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [
      fileURLToPath(new URL(module.replace(/\.js$/, ".ts"), new URL("../../cli/", import.meta.url))),
    ],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const parts = new Set<string>();
  const packages = new Set<string>();
  for (const [path, input] of Object.entries(result.metafile.inputs)) {
    const top = path.split("/")[0] ?? "";
    if (top !== "cli" && top !== "node_modules") parts.add(top);
    for (const imported of input.imports) {
      const builtin = imported.path.startsWith("node:") || builtinModules.includes(imported.path);
      if (imported.external && !builtin) packages.add(packageOf(imported.path));
    }
  }
  return { parts: [...parts].sort(), packages: [...packages].sort() };
}

describe("the command registry", () => {
  it("names each command once, each with a summary and a module in cli/commands", () => {
    const names = COMMAND_REGISTRY.map((entry) => entry.name);

    assert.equal(new Set(names).size, names.length);
    for (const entry of COMMAND_REGISTRY) {
      assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), entry.name);
      assert.equal(entry.module, `./commands/${entry.exportName}.js`, entry.name);
    }
  });

  it("loads every command of this checkout, each exporting the command its entry names", async () => {
    for (const entry of COMMAND_REGISTRY) {
      assert.deepEqual(missingParts(entry), [], entry.name);

      const command = await loadCommand(entry);

      assert.equal(typeof command.run, "function", entry.name);
    }
  });

  it("declares exactly the folders each command imports, and every package it needs beyond production ones", async () => {
    for (const entry of COMMAND_REGISTRY) {
      const { parts, packages } = await importsOf(entry.module);

      assert.deepEqual([...entry.parts].sort(), parts, `${entry.name}: parts`);
      for (const name of packages) {
        assert.ok(
          installedInProduction(name) || entry.devPackages?.includes(name),
          `${entry.name} imports ${name}, which a production install leaves out: list it in devPackages`,
        );
      }
      for (const name of entry.devPackages ?? []) {
        assert.ok(PACKAGE.devDependencies[name] !== undefined, `${entry.name}: ${name} is a dev dependency`);
      }
    }
  });
});
