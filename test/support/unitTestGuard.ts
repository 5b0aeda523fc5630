/**
 * Loaded by `npm run test:unit` (`test/runUnitTests.ts`) into every test process before the test
 * file: a unit test must not load llama.cpp (a model) nor start Java (DynamoDB Local), podman or
 * docker. One that does ends its test process at once (exit code 1, so the file fails) with a
 * message that says how to name the file instead. `npm test` runs without it.
 *
 * The checks sit where those things really start — `process.dlopen` for llama.cpp's native binding
 * (node-llama-cpp loads it on its first `getLlama()`; importing the package loads nothing) and the
 * `child_process` functions for the programs — so a helper several imports away is caught too.
 * The process ends rather than throwing: node-llama-cpp answers a binding that fails to load by
 * building llama.cpp from source, and a test that finds no podman skips itself; a thrown error
 * would let either pass.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { basename } from "node:path";
import { promisify } from "node:util";

/** Ends the test process: it reached for something only integration and model tests may use. */
function refuse(what: string): never {
  process.stderr.write(
    `\nunit test boundary: ${process.argv[1] ?? "this test"} ${what}. Name the test file *.model.test.ts (it needs llama.cpp and a model) or *.integration.test.ts (emulators, Java, podman), so that npm run test:unit leaves it to npm test.\n`,
  );
  process.exit(1);
}

/** Programs no unit test may start. */
const FORBIDDEN_PROGRAMS = new Set(["java", "podman", "docker", "cmake", "cmake-js"]);
/** node-llama-cpp's own files: it forks one to try its binding before loading it. */
const LLAMA_PACKAGE = /[\\/]node-llama-cpp[\\/]/;

const dlopen = process.dlopen.bind(process);
process.dlopen = ((module: { exports: unknown }, filename: string, ...rest: unknown[]) => {
  if (/llama/i.test(basename(filename)) || /node-llama-cpp|[\\/]llama[^\\/]*[\\/]/i.test(filename))
    refuse(`loads llama.cpp (${filename})`);
  return (dlopen as (...args: unknown[]) => unknown)(module, filename, ...rest);
}) as typeof process.dlopen;

/** The program a `spawn`/`execFile`-style call runs, or a shell command line's first word. */
function programOf(command: unknown, shell: boolean): string {
  const text = typeof command === "string" ? command : String(command);
  const first = shell ? (text.trim().split(/\s+/)[0] ?? "") : text;
  return basename(first.replace(/^["']|["']$/g, "")).replace(/\.exe$/i, "");
}

function guard(name: keyof typeof childProcess, shell: boolean): void {
  const check = (args: unknown[]): void => {
    const program = programOf(args[0], shell);
    if (FORBIDDEN_PROGRAMS.has(program)) refuse(`starts ${program} (child_process.${name})`);
    if (typeof args[0] === "string" && LLAMA_PACKAGE.test(args[0]))
      refuse(`loads llama.cpp (node-llama-cpp tries its binding in a child process: ${args[0]})`);
  };
  const original = childProcess[name] as ((...args: unknown[]) => unknown) & Record<symbol, unknown>;
  const guarded = ((...args: unknown[]) => {
    check(args);
    return original(...args);
  }) as ((...args: unknown[]) => unknown) & Record<symbol, unknown>;
  // exec and execFile promisify to {stdout, stderr} through their own custom form: keep it, guarded.
  const custom = original[promisify.custom] as ((...args: unknown[]) => unknown) | undefined;
  if (custom !== undefined) {
    guarded[promisify.custom] = (...args: unknown[]) => {
      check(args);
      return custom(...args);
    };
  }
  (childProcess as unknown as Record<string, unknown>)[name] = guarded;
}

for (const name of ["spawn", "spawnSync", "execFile", "execFileSync", "fork"] as const) guard(name, false);
for (const name of ["exec", "execSync"] as const) guard(name, true);
// `import { spawn } from "node:child_process"` sees the guarded functions from here on.
syncBuiltinESMExports();
