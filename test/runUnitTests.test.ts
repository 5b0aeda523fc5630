/**
 * `npm run test:unit`'s rule: which files it runs, and the guard that ends a unit test reaching for
 * llama.cpp, Java or podman (checked in child processes, so nothing is loaded here).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { findUnitTestFiles, isUnitTestFile, sharedProcessFolderOf } from "./runUnitTests.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs an ES module snippet in a child Node.js with the guard loaded, as test:unit loads it. */
async function underGuard(code: string): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(
      process.execPath,
      ["--import", "tsx", "--import", "./test/support/unitTestGuard.ts", "--input-type=module", "-e", code],
      { cwd: ROOT, timeout: 120_000 },
    );
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? "" };
  }
}

describe("npm run test:unit", () => {
  it("selects test files by name: not *.integration.test.ts, not *.model.test.ts", () => {
    assert.equal(isUnitTestFile("test/core/pipeline/decideItems.test.ts"), true);
    assert.equal(isUnitTestFile("test/functions/decide/decide.integration.test.ts"), false);
    assert.equal(isUnitTestFile("test/adapter/engine/Scorer.model.test.ts"), false);
    assert.equal(isUnitTestFile("test/core/pipeline/memoryPorts.ts"), false);

    const files = findUnitTestFiles(ROOT);

    assert.ok(files.includes("test/core/pipeline/decideItems.test.ts"), files.join("\n"));
    assert.ok(files.includes("test/runUnitTests.test.ts"));
    assert.deepEqual(
      files.filter((file) => /\.(integration|model)\.test\.ts$/.test(file)),
      [],
    );
  });

  it("runs every unit file that synthesizes the app's variants in the infra folder's process, which synthesizes each once", () => {
    const synthesizing = findUnitTestFiles(ROOT).filter((file) =>
      /from "[./]*\/infra\/synthVariant\.js"/.test(readFileSync(`${ROOT}${file}`, "utf8")),
    );

    assert.ok(synthesizing.includes("test/lab/rehearsal/rehearse.test.ts"), synthesizing.join("\n"));
    assert.deepEqual(
      synthesizing.filter((file) => sharedProcessFolderOf(file) !== "test/infra/"),
      [],
      "files that synthesize in a process of their own",
    );
  });

  it("ends a unit test that starts Java, naming the suffix it should have", async () => {
    const { code, stderr } = await underGuard(
      'import { spawn } from "node:child_process"; spawn("java", ["-version"]);',
    );

    assert.equal(code, 1);
    assert.match(stderr, /unit test boundary: .* starts java .*\*\.integration\.test\.ts/);
  });

  it("ends a unit test that loads llama.cpp, before node-llama-cpp could build it", async () => {
    const { code, stderr } = await underGuard(
      'const { getLlama } = await import("node-llama-cpp"); await getLlama({ gpu: false, build: "never" });',
    );

    assert.equal(code, 1);
    assert.match(stderr, /unit test boundary: .* loads llama\.cpp .*\*\.model\.test\.ts/);
  });

  it("lets a unit test start other programs", async () => {
    const { code } = await underGuard(
      'import { execFileSync } from "node:child_process"; execFileSync(process.execPath, ["-e", "0"]);',
    );

    assert.equal(code, 0);
  });
});
