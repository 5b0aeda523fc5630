/**
 * `npm run test:unit`: the fast unit tests only — no Java, no model, no podman, no emulator.
 *
 * The rule is in the file name. Every test file (`*.test.ts` under `test/`) is a unit test unless
 * it is named
 * - `*.integration.test.ts`: it starts real local parts (DynamoDB Local on Java, fauxqs, the
 *   adapter or the CLI as processes, podman), or
 * - `*.model.test.ts`: it loads llama.cpp (node-llama-cpp) on a generated GGUF model.
 * `npm test` runs all three kinds. The rule is enforced, not only written: each unit test process
 * is started with `test/support/unitTestGuard.ts`, which ends a test that loads llama.cpp or starts
 * Java, podman or docker, with a message naming the suffix it should have.
 *
 * Arguments, when given, are the test files to run instead of every unit test (each must be one).
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Suffixes of the test files `npm run test:unit` leaves to `npm test`. */
export const NOT_UNIT_SUFFIXES = [".integration.test.ts", ".model.test.ts"] as const;

/** Whether a test file (a path or name) is a unit test by the naming rule. */
export function isUnitTestFile(file: string): boolean {
  return file.endsWith(".test.ts") && !NOT_UNIT_SUFFIXES.some((suffix) => file.endsWith(suffix));
}

/** The unit test files under `root` (the repository), as paths relative to it with `/`, sorted. */
export function findUnitTestFiles(root: string): string[] {
  return readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })
    .map((file) => `test/${file.split(sep).join("/")}`)
    .filter(isUnitTestFile)
    .sort();
}

const root = fileURLToPath(new URL("..", import.meta.url));

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const asked = process.argv.slice(2).map((file) => relative(root, file).split(sep).join("/"));
  const refused = asked.filter((file) => !isUnitTestFile(file));
  if (refused.length > 0) {
    process.stderr.write(`not unit tests (by name): ${refused.join(", ")}; run them with node --test\n`);
    process.exit(2);
  }
  const files = asked.length > 0 ? asked : findUnitTestFiles(root);
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./test/support/unitTestGuard.ts",
      "--test",
      "--test-concurrency=2",
      ...files,
    ],
    { cwd: root, stdio: "inherit" },
  );
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
