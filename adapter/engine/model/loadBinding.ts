import { getLlama, type Llama, LlamaLogLevel, NoBinaryFoundError } from "node-llama-cpp";
import { cmakeOptionsOf, type LlamaBuild } from "../builds/llamaBuilds.js";
import type { EngineLogger } from "../EngineLogger.js";
import { ModelLoadError } from "../errors.js";
import { llamaLogRouter } from "./llamaLogRouter.js";

/** Options of {@link loadBinding} (the scorer's own, of the same names). */
export interface LoadBindingOptions {
  /** Which llama.cpp binary to load. Default `prebuilt`. */
  llamaBuild?: LlamaBuild;
  /** Lowest llama.cpp log level passed on. Default `warn`. */
  logLevel?: "error" | "warn" | "info" | "debug";
  /** Where llama.cpp's log lines go; default node-llama-cpp prints them on the console. */
  logger?: EngineLogger;
}

const LOG_LEVELS = {
  error: LlamaLogLevel.error,
  warn: LlamaLogLevel.warn,
  info: LlamaLogLevel.info,
  debug: LlamaLogLevel.debug,
} as const;

/**
 * Loads the llama.cpp binding of `options.llamaBuild`, its log lines routed to the options' logger
 * when there is one. Nothing is ever built or downloaded here (`build: "never"`): a source build is
 * made beforehand by `decisions build-llama`, and found by its CMake options ({@link cmakeOptionsOf}).
 * @throws ModelLoadError when the binding cannot load (naming the command for a missing source build).
 */
export async function loadBinding(
  options: LoadBindingOptions,
  threads: number,
  gpuLayers: number,
): Promise<Llama> {
  const build = options.llamaBuild ?? "prebuilt";
  const source =
    build === "prebuilt" ? {} : { cmakeOptions: { ...cmakeOptionsOf(build) }, usePrebuiltBinaries: false };
  try {
    return await getLlama({
      gpu: gpuLayers === 0 ? false : "auto",
      build: "never",
      ...source,
      maxThreads: threads,
      logLevel: LOG_LEVELS[options.logLevel ?? "warn"],
      ...(options.logger === undefined ? {} : { logger: llamaLogRouter(options.logger) }),
    });
  } catch (error) {
    if (build !== "prebuilt" && error instanceof NoBinaryFoundError) {
      throw new ModelLoadError(
        `no ${build} llama.cpp build is here: run \`decisions build-llama --variant ${build}\` first, or use the prebuilt binary`,
        { cause: error },
      );
    }
    throw new ModelLoadError("could not load the llama.cpp binding", { cause: error });
  }
}
