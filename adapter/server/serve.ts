import type { DecisionEngine } from "../engine/types.js";
import type { ServerConfig } from "./config.js";
import { DecisionServer } from "./DecisionServer.js";
import { loadServedEngine } from "./loadServedEngine.js";
import { createJsonLogger, type Logger } from "./logger.js";

/** Where shutdown signals come from (the process, or a stand-in in tests). */
export interface SignalSource {
  once(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Default: JSON lines on stdout at the configured level. */
  logger?: Logger;
  /** Default: {@link loadServedEngine} with the configuration (discovery, manifest, llama.cpp). */
  loadEngine?: (signal: AbortSignal) => Promise<DecisionEngine>;
  /** Default: `process`. */
  signals?: SignalSource;
  /** Called once the server is ready, with its port (tests use it). */
  onReady?: (server: DecisionServer) => void;
}

const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT"];

/**
 * Runs the decision server until SIGTERM or SIGINT: listens first (so `/ping` answers 503 while the
 * model loads and is verified), loads the engine and probes it, serves, then shuts down gracefully.
 *
 * @returns the process exit code: 0 after a graceful shutdown, 1 when the server could not start
 *   (port taken, no single model, manifest mismatch, model load or probe failure — each logged
 *   with its reason).
 */
export async function serve(config: ServerConfig, options: ServeOptions = {}): Promise<number> {
  const logger = options.logger ?? createJsonLogger({ level: config.logLevel });
  const signals = options.signals ?? process;
  const server = new DecisionServer({
    settings: config,
    loadEngine: options.loadEngine ?? ((signal) => loadServedEngine(config, logger, signal)),
    logger,
    readyFields: {
      threads: config.threads,
      gpu_layers: config.gpuLayers,
      batch_size: config.batchSize,
    },
  });
  let stopRequested!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    stopRequested = resolve;
  });
  const listeners = SHUTDOWN_SIGNALS.map((signal) => {
    const listener = (): void => stopRequested(signal);
    signals.once(signal, listener);
    return [signal, listener] as const;
  });
  const removeListeners = (): void => {
    for (const [signal, listener] of listeners) signals.off(signal, listener);
  };
  try {
    await server.listen();
  } catch (error) {
    removeListeners();
    logger.log("error", "startup_failed", { error, host: config.host, port: config.port });
    return 1;
  }
  const startup = server.load().then(
    () => "ready" as const,
    (error: unknown) => error,
  );
  const first = await Promise.race([startup, stopped]);
  if (first !== "ready" && !isSignal(first)) {
    removeListeners();
    logger.log("error", "startup_failed", { error: first });
    await server.close();
    return 1;
  }
  if (first === "ready") options.onReady?.(server);
  const signal = isSignal(first) ? first : await stopped;
  removeListeners();
  logger.log("info", "signal", { signal });
  await server.close();
  // A model still loading when the signal came is disposed by the server once it arrives.
  await startup;
  return 0;
}

function isSignal(value: unknown): value is NodeJS.Signals {
  return typeof value === "string" && (SHUTDOWN_SIGNALS as readonly string[]).includes(value);
}
