import { LLAMA_BUILDS } from "../../../contract/index.js";

/**
 * Which llama.cpp binary the engine runs on.
 *
 * - `prebuilt` (the default): node-llama-cpp's prebuilt binary for the platform, which loads
 *   everywhere without a compiler. Its CPU binary is built without OpenMP.
 * - `native`: built on this machine from the llama.cpp source node-llama-cpp ships
 *   (`llama/gitRelease.bundle`) by `decisions build-llama`, with OpenMP and `-march=native`
 *   (`GGML_NATIVE`), but without ggml's AMX kernels on x86 (see {@link AMX_OFF_FLAGS}): the fastest
 *   here that is known to run, and only for CPUs like the one that built it.
 * - `native-amx`: `native` with everything `-march=native` enables, AMX included: ggml's AMX
 *   matrix kernels on a CPU with `amx_int8` (4th-generation Xeon and later). Only where a smoke test
 *   showed they run: on some hosts they crash (see docs/llama-builds.md).
 * - `portable`: the same source with OpenMP but without native flags (`GGML_NATIVE=OFF`: ggml's
 *   default x86 set, SSE 4.2, AVX, AVX2, FMA, F16C, BMI2; no AVX-512, no AMX): what an image built
 *   on one machine and run on another should use.
 *
 * The source builds are told apart from each other and from the prebuilt by their CMake options:
 * node-llama-cpp names a local build's folder after them, so loading with the same options finds
 * exactly that build and never silently another one. The list itself is in
 * `contract/settings/serverSettings.ts`, beside the `SEMIF_LLAMA_BUILD` setting that chooses one.
 */
export { LLAMA_BUILDS };

/** One of {@link LLAMA_BUILDS}. */
export type LlamaBuild = (typeof LLAMA_BUILDS)[number];

/** A build made from the bundled source by `decisions build-llama`. */
export type SourceLlamaBuild = Exclude<LlamaBuild, "prebuilt">;

/**
 * Compiler flags that take AMX out of a `-march=native` build on x86 (GCC and Clang). ggml's AMX
 * kernels (`ggml-cpu/amx`) are compiled only when `__AMX_INT8__` is defined, which `-march=native`
 * does on a CPU with AMX; ggml's own `GGML_AMX_*` options are read only when `GGML_NATIVE` is off,
 * so they cannot do this. An explicit `-mno-*` wins over `-march` whatever the order, and GCC 12
 * needs all three (`-mno-amx-tile` alone leaves `__AMX_INT8__` defined). On a CPU without AMX they
 * change nothing.
 */
export const AMX_OFF_FLAGS = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16";

/**
 * CMake's own Release flags for GCC and Clang, which a `CMAKE_<LANG>_FLAGS_RELEASE` given on the
 * command line replaces and so must repeat.
 */
const RELEASE_FLAGS = "-O3 -DNDEBUG";

/**
 * The CMake options a source build is compiled with and found by. OpenMP is named explicitly even
 * though llama.cpp turns it on by default, so that a source build never has node-llama-cpp's
 * default folder name (which node-llama-cpp would otherwise prefer over its prebuilt binary).
 *
 * `native` on x86 carries {@link AMX_OFF_FLAGS} in `CMAKE_C_FLAGS_RELEASE` and
 * `CMAKE_CXX_FLAGS_RELEASE` (node-llama-cpp always builds Release): not in `CMAKE_CXX_FLAGS`, which
 * cmake-js sets itself after the options it is given. The flags are added on every x86 machine,
 * with AMX or without, so that the build is found by the same options wherever it is served.
 * @param arch Node.js's name of the CPU architecture. Default: this process's.
 */
export function cmakeOptionsOf(
  build: SourceLlamaBuild,
  arch: NodeJS.Architecture = process.arch,
): Readonly<Record<string, string>> {
  const base = { GGML_OPENMP: "ON", GGML_NATIVE: build === "portable" ? "OFF" : "ON" };
  if (build !== "native" || arch !== "x64") return base;
  const release = `${RELEASE_FLAGS} ${AMX_OFF_FLAGS}`;
  return { ...base, CMAKE_C_FLAGS_RELEASE: release, CMAKE_CXX_FLAGS_RELEASE: release };
}

/** Whether a source build may contain ggml's AMX kernels (on a CPU with AMX). */
export function mayUseAmx(build: SourceLlamaBuild, arch: NodeJS.Architecture = process.arch): boolean {
  return build === "native-amx" && arch === "x64";
}
