/**
 * `decisions build-llama`: compiles llama.cpp for the engine from the source node-llama-cpp ships,
 * with OpenMP (and native CPU flags for `native`), through node-llama-cpp's own build support. The
 * engine uses it when asked (`SEMIF_LLAMA_BUILD` / `--llama-build`); the prebuilt stays the default.
 */
import { buildLlamaFromSource } from "../../adapter/engine/buildLlamaFromSource.js";
import { LLAMA_BUILDS, type SourceLlamaBuild } from "../../adapter/engine/llamaBuilds.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

const VARIANTS = LLAMA_BUILDS.filter((build): build is SourceLlamaBuild => build !== "prebuilt");

const USAGE = `usage: decisions build-llama [--variant ${VARIANTS.join("|")}]

Compiles llama.cpp from the source node-llama-cpp ships (llama/gitRelease.bundle, no download)
with CMake and this machine's C++ compiler, with OpenMP, into node-llama-cpp's local builds.
Takes about 10 minutes on 2 cores; needs cmake, g++ (or clang with libomp) and git.

  --variant  native    OpenMP and -march=native: the fastest here, for CPUs like this one (default)
             portable  OpenMP without native flags: for an image built here and run elsewhere

Then serve on it with SEMIF_LLAMA_BUILD=<variant> (or serve --llama-build <variant>); the
prebuilt binary stays the default, and a missing build is an error, never a silent fallback.
`;

/** Builds the `decisions build-llama` command writing to `stdout` / `stderr` (tests pass their own). */
export function createBuildLlamaCommand(output: Partial<CliOutput> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values } = parseCommandArgs({
        args,
        options: {
          variant: { type: "string", default: "native" },
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
      stderr.write(`build-llama: compiling the ${variant} build of the bundled llama.cpp source\n`);
      const built = await buildLlamaFromSource({ build: variant, write: (text) => stderr.write(text) });
      const options = Object.entries(built.cmakeOptions)
        .map(([name, value]) => `${name}=${value}`)
        .join(" ");
      stdout.write(
        `built llama.cpp ${built.release} (${variant}: ${options}) in ${built.durationS.toFixed(0)} s; it loads here with ${built.cpuMathCores} math cores\n` +
          `serve on it with SEMIF_LLAMA_BUILD=${variant} (or --llama-build ${variant})\n`,
      );
      return 0;
    },
  };
}

/** The `decisions build-llama` command, writing to the process's stdout and stderr. */
export const buildLlamaCommand: CliCommand = createBuildLlamaCommand();
