/**
 * One error class per idea: no error class name is defined twice in the source (test/ aside), so
 * an `instanceof` or a log line's `name` always means one thing.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SKIPPED = new Set(["node_modules", "dist", "test", "cdk.out", ".git", ".cache"]);

/** The error classes a TypeScript text defines (`class XError extends …`). */
export function errorClassesOf(text: string): string[] {
  return [
    ...text.matchAll(/^\s*(?:export\s+)?(?:abstract\s+)?class\s+(\w+(?:Error|Exception))\s+extends\b/gm),
  ].map((match) => match[1] ?? "");
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

describe("error classes", () => {
  it("finds classes named …Error or …Exception, exported or not", () => {
    const text =
      "export class A extends B {}\nexport class BadError extends Error {}\n  class Other Exception {}\nclass QuietError extends BadError {}\n";

    assert.deepEqual(errorClassesOf(text), ["BadError", "QuietError"]);
  });

  it("has no name defined twice", () => {
    const where = new Map<string, string[]>();
    for (const file of sourceFiles(ROOT))
      for (const name of errorClassesOf(readFileSync(file, "utf8")))
        where.set(name, [...(where.get(name) ?? []), relative(ROOT, file)]);

    const twice = [...where]
      .filter(([, files]) => files.length > 1)
      .map(([name, files]) => `${name}: ${files.join(", ")}`);

    assert.ok(where.size > 50, `read ${where.size} error classes`);
    assert.deepEqual(
      twice,
      [],
      "give each idea one class: reuse the existing one or name the new one for what differs",
    );
  });
});
