/**
 * `decisions build-llama`: compiles llama.cpp for the engine from the source node-llama-cpp ships,
 * with OpenMP (and native CPU flags for `native`), through node-llama-cpp's own build support, then
 * smoke-tests the build on a generated model before offering it. The engine uses it when asked
 * (`SEMIF_LLAMA_BUILD` / `--llama-build`); the prebuilt stays the default.
 */
import { buildLlamaFromSource } from "../../adapter/engine/builds/buildLlamaFromSource.js";
import { explainAmxChoice } from "../../adapter/engine/builds/explainAmxChoice.js";
import { LLAMA_BUILDS, type SourceLlamaBuild } from "../../adapter/engine/builds/llamaBuilds.js";
import {
  type CpuFeatures,
  describeCpuFeatures,
  readCpuFeatures,
} from "../../adapter/engine/builds/readCpuFeatures.js";
import { ensureGeneratedModel } from "../../adapter/models/generateModel.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const VARIANTS = LLAMA_BUILDS.filter((build): build is SourceLlamaBuild => build !== "prebuilt");

/** The generated model the smoke test loads (16 MB, Q8_0: the matrix kernels run on it). */
const SMOKE_TEST_MODEL = "tiny-qwen3";

const USAGE = `usage: decisions build-llama [--variant ${VARIANTS.join("|")}] [--check]

Compiles llama.cpp from the source node-llama-cpp ships (llama/gitRelease.bundle, no download)
with CMake and this machine's C++ compiler, with OpenMP, into node-llama-cpp's local builds, then
smoke-tests it: a child process loads the build and a generated model (${SMOKE_TEST_MODEL}) and
evaluates one prompt. A build that crashes here is reported with its flags, the CPU and the fix.
Takes about 10 minutes on 2 cores; needs cmake, g++ (or clang with libomp) and git.

  --variant  native      OpenMP and -march=native without AMX (-mno-amx-*): the fastest build
                         known to run here, for CPUs like this one (default)
             native-amx  native with ggml's AMX kernels, for CPUs with amx_int8 where the smoke
                         test shows they run (they crash on some hosts)
             portable    OpenMP without native flags (SSE 4.2 to AVX2): for an image built here
                         and run elsewhere
  --check    only smoke-test the build made before (no compile)

Then serve on it with SEMIF_LLAMA_BUILD=<variant> (or serve --llama-build <variant>); the
prebuilt binary stays the default, and a missing build is an error, never a silent fallback.
`;

/** Options of {@link createBuildLlamaCommand}. Every field defaults to the real thing. */
export interface BuildLlamaCommandOptions extends Partial<CliOutput> {
  /** This machine's CPU. Default: read once when the command runs (`/proc/cpuinfo`). */
  readCpu?: () => CpuFeatures;
  /** Builds and smoke-tests. Default {@link buildLlamaFromSource}. */
  build?: typeof buildLlamaFromSource;
  /** The smoke test's model. Default: the generated `tiny-qwen3` (made when missing). */
  smokeTestModel?: () => Promise<string>;
  /** The environment the build runs in. Default: this process's (a command is its process's entry). */
  env?: NodeJS.ProcessEnv;
}

/** Builds the `decisions build-llama` command (tests pass their own output, CPU and builder). */
export function createBuildLlamaCommand(options: BuildLlamaCommandOptions = {}): CliCommand {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values } = parseCommandArgs({
        args,
        options: {
          variant: { type: "string", default: "native" },
          check: { type: "boolean", default: false },
          help: { type: "boolean", short: "h", default: false },
        },
        usage: USAGE,
      });
      if (values.help) {
        stdout.write(USAGE);
        return 0;
      }
      const variant = VARIANTS.find((name) => name === values.variant);
      if (variant === undefined) {
        throw new UsageError(`--variant must be one of ${VARIANTS.join(", ")}, got "${values.variant}"`, {
          usage: USAGE,
        });
      }
      if (variant === "native-amx" && process.arch !== "x64") {
        throw new UsageError(`--variant native-amx is for x86 CPUs with AMX; this is ${process.arch}`, {
          usage: USAGE,
        });
      }
      const cpu = (options.readCpu ?? readCpuFeatures)();
      const choice = explainAmxChoice(variant, cpu);
      stderr.write(`build-llama: CPU ${describeCpuFeatures(cpu)}\n`);
      stderr.write(`build-llama: ${choice.line}\n`);
      stderr.write(
        values.check
          ? `build-llama: smoke-testing the ${variant} build made before\n`
          : `build-llama: compiling the ${variant} build of the bundled llama.cpp source\n`,
      );
      const smokeTestModel = await (
        options.smokeTestModel ?? (() => ensureGeneratedModel(SMOKE_TEST_MODEL))
      )();
      const built = await (options.build ?? buildLlamaFromSource)({
        build: variant,
        cpu,
        smokeTestModel,
        compile: !values.check,
        write: (text) => stderr.write(text),
        env: options.env ?? process.env,
      });
      const flags = Object.entries(built.cmakeOptions)
        .map(([name, value]) => `${name}=${value}`)
        .join(" ");
      const smoke = built.smokeTest;
      stdout.write(
        `${values.check ? "checked" : "built"} llama.cpp ${built.release} (${variant}: ${flags})${values.check ? "" : ` in ${built.durationS.toFixed(0)} s`}\n` +
          `smoke test passed: ${SMOKE_TEST_MODEL} loaded, a ${smoke.promptTokens}-token prompt evaluated on ${smoke.threads} threads in ${smoke.ms} ms\n` +
          `serve on it with SEMIF_LLAMA_BUILD=${variant} (or --llama-build ${variant})\n`,
      );
      return 0;
    },
  };
}

/** The `decisions build-llama` command, writing to the process's stdout and stderr. */
export const buildLlamaCommand: CliCommand = createBuildLlamaCommand();
