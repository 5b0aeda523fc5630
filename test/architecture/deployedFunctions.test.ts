/**
 * functions/ holds only what is deployed: every folder directly under it is a Lambda function with
 * its `handler.ts`, and the CDK app names that handler as a function's entry. The libraries the
 * functions share live in core/.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function folders(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .filter((name) => statSync(join(ROOT, dir, name)).isDirectory())
    .sort();
}

function infraSources(): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) texts.push(readFileSync(join(ROOT, path), "utf8"));
    }
  };
  walk("infra");
  return texts.join("\n");
}

describe("functions/", () => {
  it("holds only deployed functions: each folder has a handler.ts", () => {
    const withoutHandler = folders("functions").filter((folder) => {
      try {
        return !statSync(join(ROOT, "functions", folder, "handler.ts")).isFile();
      } catch {
        return true;
      }
    });

    assert.deepEqual(withoutHandler, [], "a library belongs in core/, one folder per concern");
  });

  it("each function's handler is the entry of a function in the CDK app", () => {
    const infra = infraSources();

    const undeployed = folders("functions").filter(
      (folder) =>
        !infra.includes(`join(projectRoot, "functions", "${folder}", "handler.ts")`) &&
        !infra.includes(`join(inputs.projectRoot, "functions", "${folder}", "handler.ts")`),
    );

    assert.deepEqual(undeployed, []);
  });
});
