import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { ManagedProcess } from "../../../local/ManagedProcess.js";

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
 * its default prompt cache (8 GiB of RAM), no web UI. Waits until `/health` answers 200 (the
 * model loaded).
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
    // It listens before the model is loaded (`/health` answers 503 until then).
    readyLine: /listening on/,
    readyTimeoutMs: 300_000,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, process_);
  return { url, stop: () => process_.stop() };
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

/** Polls `/health` until it answers 200; fails when the process exits first or after 5 minutes. */
async function waitForHealth(url: string, server: ManagedProcess): Promise<void> {
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && !exited) {
    const status = await fetch(`${url}/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(200);
  }
  await server.stop();
  throw new Error(`llama-server did not become healthy: ${server.output().slice(-2000)}`);
}
