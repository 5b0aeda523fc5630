import { createServer } from "node:net";
import { ManagedProcess } from "../../local/ManagedProcess.js";

/** Options of {@link startLlamaServer}. */
export interface StartLlamaServerOptions {
  binary: string;
  modelPath: string;
  threads: number;
  contextSize: number;
  batchSize: number;
}

/** A llama-server on 127.0.0.1. */
export interface RunningLlamaServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts llama-server on a free 127.0.0.1 port with the adapter's settings: the same threads for
 * prompt and generation, context, batch, one slot, flash attention when the model supports it,
 * its default prompt cache (8 GiB of RAM), no web UI. Waits for "server is listening".
 */
export async function startLlamaServer(options: StartLlamaServerOptions): Promise<RunningLlamaServer> {
  const port = await freePort();
  const process_ = await ManagedProcess.start({
    part: "llama-server",
    command: options.binary,
    args: [
      ["-m", options.modelPath],
      ["--host", "127.0.0.1"],
      ["--port", String(port)],
      ["-t", String(options.threads)],
      ["-tb", String(options.threads)],
      ["-c", String(options.contextSize)],
      ["-b", String(options.batchSize)],
      ["-np", "1"],
      ["-fa", "auto"],
      ["--no-webui"],
    ].flat(),
    readyLine: /server is listening/,
    readyTimeoutMs: 300_000,
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => process_.stop() };
}

/** A port nothing listens on now (the OS picks it; llama-server wants a number). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
