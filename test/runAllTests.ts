/**
 * `npm test`'s test run: every test file (unit, model, integration), two processes at a time, the
 * heaviest first (by `test/testWeights.json`), so that the two workers end together. Model and
 * integration files each get a process of their own; the unit files are loaded a group to a
 * process ({@link unitGroups}: the infra folder's files, the others in {@link UNIT_GROUPS} groups),
 * as `npm run test:unit` loads them but with every property test's full count of cases (measured
 * on two cores: a process per unit file summed 415 s of the workers' time, the four groups 93 s).
 * Node's own `--test` sorts the files it is given by name, so the order needs `run()` from
 * `node:test`, which keeps it; a unit group is a generated file that imports its files.
 *
 * The report is node's TAP (its spec form on a terminal), ending with its `# pass` / `# fail` lines.
 * With `DECISIONS_TEST_WEIGHTS_OUT=<file>` the seconds each file (or unit group) took are written
 * there as JSON, the form of `test/testWeights.json`, with the unit files' own recorded weights kept.
 *
 * The test processes' Java (DynamoDB Local) runs with {@link TEST_JAVA_OPTIONS}, unless the caller
 * set `JDK_JAVA_OPTIONS` itself.
 *
 * Arguments, when given, are the test files to run instead of all of them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadStackTemplate } from "../local/stack/loadStackTemplate.js";
import { isUnitTestFile, sharedProcessFolderOf } from "./runUnitTests.js";
import { findTestFiles, readWeights, unitGroups, weightOf } from "./testOrder.js";

/** Groups `npm test` loads the unit files outside the shared-process folders into. */
export const UNIT_GROUPS = 3;

/**
 * The JVM flags of the test processes' DynamoDB Local, given through `JDK_JAVA_OPTIONS` (read by
 * the `java` launcher, which notes it on stderr): the C1 compiler only, and the serial collector.
 * A test's DynamoDB Local lives seconds to a few minutes, too short for C2's compilations and the
 * parallel collector's threads to pay back on two cores; what it answers is the same. Measured on
 * a 2-core machine under load ~12, each file alone, CPU seconds of its whole process tree without
 * → with: reviewQueueOrder 35.4 → 20.6 and 31.5 → 25.0, jobScale 38.8 → 22.3, decide 24.0 → 21.5;
 * DynamoDB Local's start alone 2.3 → 1.2.
 */
export const TEST_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Writes a test file into `dir` that imports `files` (relative to the repository), in order, so
 * that one test process runs their tests; returns its path. A file that fails to load becomes a
 * failing test naming it, and the group's other files still run.
 */
function writeGroupFile(dir: string, name: string, files: readonly string[]): string {
  const path = join(dir, `${name.replaceAll(/[^a-z0-9]+/gi, "-").replace(/-$/, "")}.test.mjs`);
  const urls = files.map((file) => pathToFileURL(join(root, file)).href);
  const text = [
    `// ${name}: ${files.length} unit test files in one process.`,
    `import { test } from "node:test";`,
    `for (const url of ${JSON.stringify(urls, null, 2)}) {`,
    "  try {",
    "    await import(url);",
    "  } catch (error) {",
    '    test("loads " + url, () => {',
    "      throw error;",
    "    });",
    "  }",
    "}",
    "",
  ].join("\n");
  writeFileSync(path, text);
  return path;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const asked = process.argv.slice(2).map((file) => relative(root, file).split(sep).join("/"));
  const all = asked.length > 0 ? asked : findTestFiles(root);
  const weights = readWeights(root);
  const dir = mkdtempSync(join(tmpdir(), "decisions-tests-"));
  const groups = unitGroups(all.filter(isUnitTestFile), UNIT_GROUPS, weights, sharedProcessFolderOf);
  const groupOfPath = new Map<string, string>();
  const jobs = [
    ...all
      .filter((file) => !isUnitTestFile(file))
      .map((file) => ({ path: file, seconds: weightOf(file, weights) })),
    ...groups.map((group) => {
      const path = writeGroupFile(dir, group.name, group.files);
      groupOfPath.set(path, group.name);
      return { path, seconds: group.seconds };
    }),
  ].sort((a, b) => b.seconds - a.seconds || a.path.localeCompare(b.path));
  const weightsOut = process.env.DECISIONS_TEST_WEIGHTS_OUT;
  const seconds = new Map<string, number>();
  process.chdir(root);
  // Inherited by every test process and what it starts (DynamoDB Local, `decisions up`).
  process.env.JDK_JAVA_OPTIONS ??= TEST_JAVA_OPTIONS;
  // The local stack is built from the CDK app's template, cached by what it is made from: made once
  // here, so that the test processes that start a stack read it instead of each synthesizing it.
  if (all.some((file) => !isUnitTestFile(file)))
    await loadStackTemplate({ log: (line) => console.log(`# ${line}`) });
  const stream = run({ files: jobs.map((job) => job.path), concurrency: 2 });
  stream.on("test:fail", (event) => {
    if (event.todo === undefined || event.todo === false) process.exitCode = 1;
  });
  stream.on("test:complete", (event) => {
    // The file's own entry (named by its path) spans the whole process, startup included.
    if (event.nesting !== 0 || event.file === undefined) return;
    const path = relative(root, event.file).split(sep).join("/");
    if (event.name !== event.file && event.name !== path) return;
    seconds.set(groupOfPath.get(event.file) ?? path, event.details.duration_ms / 1000);
  });
  stream.on("end", () => {
    rmSync(dir, { recursive: true, force: true });
    if (weightsOut === undefined) return;
    // The unit files' own weights (which `npm run test:unit` splits its two processes by) are not
    // measured here, where they run in groups: the recorded ones of files that still exist are kept.
    const existing = new Set(findTestFiles(root));
    const kept = Object.entries(weights).filter(([file]) => isUnitTestFile(file) && existing.has(file));
    const measured = [...seconds].map(([file, s]) => [file, Math.round(s * 10) / 10] as const);
    const merged = new Map<string, number>([...kept, ...measured]);
    const recorded = Object.fromEntries([...merged].sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(weightsOut, `${JSON.stringify(recorded, null, 2)}\n`);
  });
  // biome-ignore lint/suspicious/noExplicitAny: node's reporters are typed as transforms of any event.
  const reporter: any = process.stdout.isTTY ? new spec() : tap;
  stream.compose(reporter).pipe(process.stdout);
}
