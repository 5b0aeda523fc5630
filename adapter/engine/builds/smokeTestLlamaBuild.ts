import { fileURLToPath } from "node:url";
import { LlamaBuildCheckError, LlamaBuildCrashError } from "../errors.js";
import { crashFixFor } from "./crashFixFor.js";
import { cmakeOptionsOf, mayUseAmx, type SourceLlamaBuild } from "./llamaBuilds.js";
import { type CpuFeatures, describeCpuFeatures } from "./readCpuFeatures.js";
import { runToExit } from "./runToExit.js";

/** Options of {@link smokeTestLlamaBuild}. */
export interface SmokeTestLlamaBuildOptions {
  build: SourceLlamaBuild;
  /** The GGUF to load (a generated one: `ensureGeneratedModel("tiny-qwen3")`). */
  modelPath: string;
  /** This machine's CPU (`readCpuFeatures()`), named in a crash's error and its fix. */
  cpu: CpuFeatures;
  /** How long loading and one prompt may take. Default 180000 ms. */
  timeoutMs?: number;
  /**
   * The command that runs the test, `[file, ...args]`; the variant and model path are appended.
   * Default: this Node.js on `smokeTestLlamaBuildMain` (through tsx when running from the
   * TypeScript sources). Tests pass a fake.
   */
  command?: readonly string[];
}

/** What a passed smoke test saw. */
export interface SmokeTestResult {
  /** The llama.cpp release of the build. */
  release: string;
  /** CPU threads llama.cpp's math ran on. */
  threads: number;
  /** Tokens of the prompt it evaluated. */
  promptTokens: number;
  /** Loading, one prompt and one token, in ms. */
  ms: number;
}

/**
 * Proves a source build of llama.cpp runs here before it is offered or used: a child process
 * loads the build (by its CMake options, never the prebuilt), loads the model, evaluates one
 * prompt on every core and samples a token. In a child, because a build that does not run on this
 * CPU does not fail, it crashes the process (a segmentation fault on some AMX hosts, an illegal
 * instruction on a CPU older than the one that built it).
 * @throws LlamaBuildCrashError when a signal killed the test: the build, the CPU and the fix.
 * @throws LlamaBuildCheckError when it failed otherwise (an error, a timeout, no result line).
 */
export async function smokeTestLlamaBuild(options: SmokeTestLlamaBuildOptions): Promise<SmokeTestResult> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const [file, ...args] = options.command ?? defaultCommand();
  const build = describeBuild(options.build);
  const exit = await runToExit(file as string, [...args, options.build, options.modelPath], { timeoutMs });
  if (exit.timedOut) {
    throw new LlamaBuildCheckError(
      build,
      `the smoke test of the ${build} did not finish within ${timeoutMs / 1000} s (loading ${options.modelPath} and one prompt)`,
      exit.output,
    );
  }
  if (exit.signal !== null) {
    const variant = options.build;
    throw new LlamaBuildCrashError({
      subject: "the smoke test",
      build,
      signal: exit.signal,
      doing: `while loading ${options.modelPath} and evaluating one prompt`,
      cpu: describeCpuFeatures(options.cpu),
      fix: crashFixFor({
        signal: exit.signal,
        cpu: options.cpu,
        amxCompiledIn: mayUseAmx(variant),
        withoutAmx: "build `decisions build-llama --variant native`, which leaves AMX out",
        portable:
          variant === "portable"
            ? "serve on the prebuilt binary (the default, SEMIF_LLAMA_BUILD unset)"
            : "build `--variant portable`, or serve on the prebuilt binary (the default)",
      }),
      output: exit.output,
    });
  }
  const records = exit.stdout.split("\n").map((line) => parseJson(line));
  if (records.some((record) => record?.smoke_test === "no_build")) {
    throw new LlamaBuildCheckError(
      build,
      `no ${build} is here to smoke-test: run \`decisions build-llama --variant ${options.build}\` (without --check) to compile it first`,
      "",
    );
  }
  const passed = records.find((record) => record?.smoke_test === "passed");
  if (exit.code !== 0 || passed === undefined) {
    throw new LlamaBuildCheckError(
      build,
      `the smoke test of the ${build} failed (exit code ${exit.code}${passed === undefined ? ", no result line" : ""})`,
      exit.output,
    );
  }
  if (passed.build_type !== "localBuild") {
    throw new LlamaBuildCheckError(
      build,
      `the smoke test loaded a ${String(passed.build_type)} binary, not the ${build}`,
      exit.output,
    );
  }
  return {
    release: String(passed.release),
    threads: Number(passed.threads),
    promptTokens: Number(passed.prompt_tokens),
    ms: Number(passed.ms),
  };
}

/** `native llama.cpp build (GGML_OPENMP=ON GGML_NATIVE=ON …)`: the variant and its CMake options. */
export function describeBuild(build: SourceLlamaBuild): string {
  const options = Object.entries(cmakeOptionsOf(build))
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
  return `${build} llama.cpp build (${options})`;
}

/** `node smokeTestLlamaBuildMain.js`, or through tsx with the `.ts` file when running from the sources. */
function defaultCommand(): string[] {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(
    new URL(`./smokeTestLlamaBuildMain.${fromSources ? "ts" : "js"}`, import.meta.url),
  );
  return fromSources
    ? [process.execPath, "--import", import.meta.resolve("tsx"), entry]
    : [process.execPath, entry];
}

function parseJson(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    // llama.cpp's own lines may start with "{" too: only a parsed record counts.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
