/**
 * `npm test`'s test run: every test file (unit, model, integration), two at a time, each in a process
 * of its own, the heaviest first ({@link heaviestFirst}). Node's own `--test` sorts the files it is
 * given by name, so the order needs `run()` from `node:test`, which keeps it.
 *
 * The report is node's TAP (its spec form on a terminal), ending with its `# pass` / `# fail` lines.
 * With `DECISIONS_TEST_WEIGHTS_OUT=<file>` the seconds each file took are written there as JSON,
 * the form of `test/testWeights.json`.
 *
 * Arguments, when given, are the test files to run instead of all of them.
 */
import { writeFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { fileURLToPath } from "node:url";
import { findTestFiles, heaviestFirst, readWeights } from "./testOrder.js";

const root = fileURLToPath(new URL("..", import.meta.url));

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const asked = process.argv.slice(2).map((file) => relative(root, file).split(sep).join("/"));
  const files = heaviestFirst(asked.length > 0 ? asked : findTestFiles(root), readWeights(root));
  const weightsOut = process.env.DECISIONS_TEST_WEIGHTS_OUT;
  const seconds = new Map<string, number>();
  process.chdir(root);
  const stream = run({ files, concurrency: 2 });
  stream.on("test:fail", (event) => {
    if (event.todo === undefined || event.todo === false) process.exitCode = 1;
  });
  stream.on("test:complete", (event) => {
    // The file's own entry (named by its path) spans the whole process, startup included.
    if (event.nesting !== 0 || event.file === undefined) return;
    const file = relative(root, event.file).split(sep).join("/");
    if (event.name === file || event.name === event.file) seconds.set(file, event.details.duration_ms / 1000);
  });
  stream.on("end", () => {
    if (weightsOut === undefined) return;
    const weights = Object.fromEntries(
      [...seconds].sort(([a], [b]) => a.localeCompare(b)).map(([file, s]) => [file, Math.round(s * 10) / 10]),
    );
    writeFileSync(weightsOut, `${JSON.stringify(weights, null, 2)}\n`);
  });
  // biome-ignore lint/suspicious/noExplicitAny: node's reporters are typed as transforms of any event.
  const reporter: any = process.stdout.isTTY ? new spec() : tap;
  stream.compose(reporter).pipe(process.stdout);
}
