import { Scorer } from "../engine/Scorer.js";
import type { DecisionEngine } from "../engine/types.js";
import { ModelManifestError } from "../models/errors.js";
import { verifyModelManifest } from "../models/modelManifest.js";
import type { ServerConfig } from "./config.js";
import { discoverModel } from "./discoverModel.js";
import type { Logger, LogLevel } from "./logger.js";

/** The settings {@link loadServedEngine} uses. */
export type EngineSettings = Pick<
  ServerConfig,
  | "modelPath"
  | "modelDir"
  | "requireManifest"
  | "threads"
  | "gpuLayers"
  | "contextSize"
  | "batchSize"
  | "parallelSequences"
  | "parallelBatching"
  | "llamaBuild"
  | "cacheMaxBytes"
  | "logLevel"
>;

/**
 * Loads the engine the server serves: finds the GGUF ({@link discoverModel}), checks it against the
 * `model-manifest.json` beside it, then loads it with the configured threads, GPU layers, context,
 * batch and cache sizes and parallel sequences. llama.cpp's own log lines and the engine's cache failures go through
 * `logger` (`llama_cpp` records with a level), so every line the process writes is JSON.
 *
 * @throws ModelDiscoveryError when no single GGUF can be chosen.
 * @throws ModelManifestMismatchError when the GGUF is not the one its manifest records.
 * @throws ModelManifestError when the manifest is missing (and `requireManifest`) or unreadable.
 * @throws GpuUnavailableError when GPU layers are requested and no GPU backend loads.
 * @throws ModelLoadError when llama.cpp cannot load the model or it cannot answer decisions.
 * @throws the signal's reason when it aborts before the model is loaded.
 */
export async function loadServedEngine(
  settings: EngineSettings,
  logger: Logger,
  signal?: AbortSignal,
): Promise<DecisionEngine> {
  const modelPath = await discoverModel({ modelPath: settings.modelPath, modelDir: settings.modelDir });
  logger.log("info", "model_found", { path: modelPath });
  const verification = await verifyModelManifest(modelPath);
  if (verification.manifest === null) {
    if (settings.requireManifest) {
      throw new ModelManifestError(
        `no model-manifest.json beside ${modelPath}; write one with \`decisions models manifest\`, or set SEMIF_REQUIRE_MANIFEST=false`,
      );
    }
    logger.log("warn", "manifest_missing", { path: modelPath, sha256: verification.sha256 });
  } else {
    logger.log("info", "model_verified", {
      path: modelPath,
      sha256: verification.sha256,
      size_bytes: verification.sizeBytes,
      source: verification.manifest.source,
      revision: verification.manifest.revision,
    });
  }
  signal?.throwIfAborted();
  return Scorer.load({
    modelPath,
    sha256: verification.sha256,
    threads: settings.threads,
    gpuLayers: settings.gpuLayers,
    contextSize: settings.contextSize,
    batchSize: settings.batchSize,
    parallelSequences: settings.parallelSequences,
    parallelBatching: settings.parallelBatching,
    llamaBuild: settings.llamaBuild,
    cacheMaxBytes: settings.cacheMaxBytes,
    // Requests are rendered and tokenized on a worker thread: /ping is answered while a large
    // request is prepared (issue 19's stalls of seconds were all on the event loop).
    promptWorker: true,
    logger,
    logLevel: llamaLogLevelFor(settings.logLevel),
  });
}

/**
 * The lowest llama.cpp level passed on: `debug` passes everything, `error` only errors, and
 * `info` or `warn` pass warnings and errors — llama.cpp's info output is hundreds of lines of
 * load chatter (tensor lists, hyperparameters) per model load.
 */
function llamaLogLevelFor(level: LogLevel): "debug" | "warn" | "error" {
  if (level === "debug" || level === "error") return level;
  return "warn";
}
