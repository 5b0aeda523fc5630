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
 * For a quick answer the unit files run in two processes (one per core), each loading its share of
 * the files into one process (`--experimental-test-isolation=none`): a test must therefore leave
 * globals (`process.env`, stdout) as it found them (`npm test` loads them a group to a process too).
 * Property tests run {@link UNIT_PROPERTY_RUNS} cases each here and their full count in `npm test`.
 *
 * Arguments, when given, are the test files to run instead of every unit test (each must be one).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { readWeights, sharedProcessWeights, splitEvenly } from "./testOrder.js";

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

/**
 * Folders whose unit tests run in one process together: they share what a process builds once
 * (the infra tests' synthesized CDK app variants, `test/infra/synthVariant.ts`), which each
 * process would otherwise load and synthesize again.
 */
export const SHARED_PROCESS_FOLDERS = ["test/infra/"] as const;

/**
 * Unit files outside those folders that run in a folder's process all the same, because they
 * build what it builds once: these synthesize the CDK app's cpu variant through
 * `test/infra/synthVariant.ts`. In a process of their own, each cost one more synthesis (about 9 s
 * of CPU with aws-cdk-lib's loading, 31 s of wall time on a loaded 2-core machine).
 */
export const SHARED_PROCESS_GUESTS: Readonly<Record<string, (typeof SHARED_PROCESS_FOLDERS)[number]>> = {
  "test/lab/rehearsal/rehearse.test.ts": "test/infra/",
  "test/local/stack/readStackTemplate.test.ts": "test/infra/",
};

/** The folder of {@link SHARED_PROCESS_FOLDERS} whose process runs a file, if any. */
export function sharedProcessFolderOf(file: string): string | undefined {
  return SHARED_PROCESS_FOLDERS.find((folder) => file.startsWith(folder)) ?? SHARED_PROCESS_GUESTS[file];
}

/** Test processes the unit run starts: one per core of the machines this runs on (two here). */
export const UNIT_SHARDS = 2;

/**
 * Cases each property test runs in the unit run (`PROPERTY_RUNS`, unless the caller set it): a
 * quick sample; `npm test` runs each property's full count.
 */
export const UNIT_PROPERTY_RUNS = 40;

/** The counts at the end of node's TAP report (`# pass N` and so on). */
export function tapCounts(tap: string): { pass: number; fail: number; skipped: number; cancelled: number } {
  const count = (name: string): number => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  return {
    pass: count("pass"),
    fail: count("fail"),
    skipped: count("skipped"),
    cancelled: count("cancelled"),
  };
}

/** Runs one shard's files in one process; resolves to its exit code once it has ended. */
function runShard(files: readonly string[], reports: { spec: string; tap: string }): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./test/support/unitTestGuard.ts",
      "--test",
      // One process for all of a shard's files: starting tsx and loading the SDKs and aws-cdk-lib
      // once per file cost about twice the tests' own time.
      "--experimental-test-isolation=none",
      "--test-reporter=dot",
      "--test-reporter-destination=stderr",
      "--test-reporter=spec",
      `--test-reporter-destination=${reports.spec}`,
      "--test-reporter=tap",
      `--test-reporter-destination=${reports.tap}`,
      ...files,
    ],
    {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? String(UNIT_PROPERTY_RUNS) },
    },
  );
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
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
  const shards = splitEvenly(
    files,
    Math.min(UNIT_SHARDS, files.length),
    sharedProcessWeights(files, readWeights(root), sharedProcessFolderOf),
    sharedProcessFolderOf,
    // A list can be empty when a group holds all the files asked for: `node --test` without files
    // would look for every test file itself.
  ).filter((shard) => shard.length > 0);
  const dir = mkdtempSync(join(tmpdir(), "decisions-unit-"));
  const started = performance.now();
  const reports = shards.map((_, index) => ({
    spec: join(dir, `shard-${index + 1}.spec.txt`),
    tap: join(dir, `shard-${index + 1}.tap`),
  }));
  const codes = await Promise.all(
    shards.map((shard, index) => runShard(shard, reports[index] as (typeof reports)[0])),
  );
  const totals = { pass: 0, fail: 0, skipped: 0, cancelled: 0 };
  for (const [index, report] of reports.entries()) {
    process.stdout.write(`\n# shard ${index + 1} of ${shards.length}: ${shards[index]?.length} files\n`);
    process.stdout.write(readFileSync(report.spec, "utf8"));
    const counts = tapCounts(readFileSync(report.tap, "utf8"));
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += counts[key];
  }
  rmSync(dir, { recursive: true, force: true });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\nunit tests: ${totals.pass} passed, ${totals.fail} failed, ${totals.skipped} skipped (${files.length} files in ${shards.length} processes, ${seconds} s)\n`,
  );
  process.exitCode = codes.some((code) => code !== 0) || totals.fail > 0 || totals.cancelled > 0 ? 1 : 0;
}
