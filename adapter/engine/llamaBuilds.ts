/**
 * Which llama.cpp binary the engine runs on.
 *
 * - `prebuilt` (the default): node-llama-cpp's prebuilt binary for the platform, which loads
 *   everywhere without a compiler. Its CPU binary is built without OpenMP.
 * - `native`: built on this machine from the llama.cpp source node-llama-cpp ships
 *   (`llama/gitRelease.bundle`) by `decisions build-llama`, with OpenMP and `-march=native`
 *   (`GGML_NATIVE`): the fastest here, and only for CPUs like the one that built it.
 * - `portable`: the same source with OpenMP but without native flags (`GGML_NATIVE=OFF`): what an
 *   image built on one machine and run on another should use.
 *
 * The two source builds are told apart from each other and from the prebuilt by their CMake
 * options: node-llama-cpp names a local build's folder after them, so loading with the same
 * options finds exactly that build and never silently another one.
 */
export const LLAMA_BUILDS = ["prebuilt", "native", "portable"] as const;

/** One of {@link LLAMA_BUILDS}. */
export type LlamaBuild = (typeof LLAMA_BUILDS)[number];

/** A build made from the bundled source by `decisions build-llama`. */
export type SourceLlamaBuild = Exclude<LlamaBuild, "prebuilt">;

/**
 * The CMake options a source build is compiled with and found by. OpenMP is named explicitly even
 * though llama.cpp turns it on by default, so that a source build never has node-llama-cpp's
 * default folder name (which node-llama-cpp would otherwise prefer over its prebuilt binary).
 */
export function cmakeOptionsOf(build: SourceLlamaBuild): Readonly<Record<string, string>> {
  return { GGML_OPENMP: "ON", GGML_NATIVE: build === "native" ? "ON" : "OFF" };
}
