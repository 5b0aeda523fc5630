import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ModelLoadError } from "../errors.js";
import { cmakeOptionsOf, type SourceLlamaBuild } from "./llamaBuilds.js";
import { nodeLlamaCppRoot } from "./nodeLlamaCppRoot.js";
import type { CpuFeatures } from "./readCpuFeatures.js";
import {
  type SmokeTestLlamaBuildOptions,
  type SmokeTestResult,
  smokeTestLlamaBuild,
} from "./smokeTestLlamaBuild.js";

/** Options of {@link buildLlamaFromSource}. */
export interface BuildLlamaOptions {
  /** Which source build to make. */
  build: SourceLlamaBuild;
  /** Where node-llama-cpp's own progress lines go. Default: stderr. */
  write?: (text: string) => void;
  /** Stops the build (the compiler is killed). */
  signal?: AbortSignal;
  /** The GGUF the smoke test loads (a generated one: `ensureGeneratedModel("tiny-qwen3")`). */
  smokeTestModel: string;
  /** This machine's CPU (`readCpuFeatures()`), named when the smoke test crashes. */
  cpu: CpuFeatures;
  /** How the smoke test runs. Default: {@link smokeTestLlamaBuild}'s. Tests pass a fake command. */
  smokeTest?: Pick<SmokeTestLlamaBuildOptions, "command" | "timeoutMs">;
  /**
   * Compile first. Default true; false runs only the smoke test, on a build made before
   * (`decisions build-llama --check`).
   */
  compile?: boolean;
  /**
   * The environment node-llama-cpp's build commands run in: the one the entry point was given,
   * to which the CMake options are added in a copy.
   */
  env: NodeJS.ProcessEnv;
}

/** What {@link buildLlamaFromSource} made. */
export interface BuiltLlama {
  build: SourceLlamaBuild;
  /** The CMake options it was compiled with (and is found by). */
  cmakeOptions: Readonly<Record<string, string>>;
  /** The llama.cpp release of the bundled source. */
  release: string;
  /** CPU cores llama.cpp's math uses on this machine. */
  cpuMathCores: number;
  durationS: number;
  /** What the smoke test after the build saw. */
  smokeTest: SmokeTestResult;
}

/**
 * Builds llama.cpp for the engine from the source node-llama-cpp ships (`llama/gitRelease.bundle`)
 * with node-llama-cpp's own build support: `source download --skipBuild` clones the bundled
 * release (no network when the bundle matches the release, as it does for the pinned version),
 * then `source build` compiles it with CMake and the machine's compiler. The CMake options of
 * {@link cmakeOptionsOf} go in through node-llama-cpp's `NODE_LLAMA_CPP_CMAKE_OPTION_*` variables,
 * so the result lands in its own folder of `node_modules/node-llama-cpp/llama/localBuilds` and is
 * found only by `llamaBuild: build`. Then the smoke test ({@link smokeTestLlamaBuild}) loads the
 * build and a generated model in a child process and evaluates one prompt: a build that crashes
 * on this CPU is reported here, not when the endpoint first serves.
 *
 * Needs CMake, a C++ compiler and git (and OpenMP's runtime, libgomp, which GCC ships); takes
 * minutes (about 10 on 2 cores).
 * @throws LlamaBuildCrashError when the smoke test was killed by a signal (build, CPU, fix).
 * @throws LlamaBuildCheckError when the smoke test failed otherwise.
 * @throws ModelLoadError when a build step fails; `cause` keeps why.
 */
export async function buildLlamaFromSource(options: BuildLlamaOptions): Promise<BuiltLlama> {
  const started = performance.now();
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const cli = nodeLlamaCppCli();
  const cmakeOptions = cmakeOptionsOf(options.build);
  const env: NodeJS.ProcessEnv = { ...options.env };
  for (const [name, value] of Object.entries(cmakeOptions))
    env[`NODE_LLAMA_CPP_CMAKE_OPTION_${name}`] = value;
  const common = ["--gpu", "false", "--noUsageExample"];
  if (options.compile ?? true) {
    await runStep(
      "clone the bundled llama.cpp source",
      [cli, "source", "download", "--skipBuild", ...common],
      env,
      write,
      options.signal,
    );
    await runStep("compile llama.cpp", [cli, "source", "build", ...common], env, write, options.signal);
  }
  const smokeTest = await smokeTestLlamaBuild({
    build: options.build,
    modelPath: options.smokeTestModel,
    cpu: options.cpu,
    ...options.smokeTest,
  });
  return {
    build: options.build,
    cmakeOptions,
    release: smokeTest.release,
    cpuMathCores: smokeTest.threads,
    durationS: (performance.now() - started) / 1000,
    smokeTest,
  };
}

/** node-llama-cpp's command-line entry, beside its main module. */
function nodeLlamaCppCli(): string {
  const cli = join(nodeLlamaCppRoot(), "dist", "cli", "cli.js");
  if (!existsSync(cli)) throw new ModelLoadError(`node-llama-cpp's command line is not at ${cli}`);
  return cli;
}

/** Runs one node-llama-cpp command on this Node.js, its output passed on to `write`. */
function runStep(
  what: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"], signal });
    child.stdout.on("data", (chunk: Buffer) => write(chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => write(chunk.toString("utf8")));
    child.on("error", (error) => reject(new ModelLoadError(`could not ${what}`, { cause: error })));
    child.on("close", (code, killedBy) => {
      if (code === 0) resolve();
      else
        reject(
          new ModelLoadError(`could not ${what}: node-llama-cpp exited with ${killedBy ?? `code ${code}`}`),
        );
    });
  });
}
