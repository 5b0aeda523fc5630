import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { crashFixFor } from "../../../adapter/engine/builds/crashFixFor.js";
import { type CpuFeatures, describeCpuFeatures } from "../../../adapter/engine/builds/readCpuFeatures.js";
import { LlamaBuildCrashError } from "../../../adapter/engine/errors.js";
import { ManagedProcess } from "../../../local/services/ManagedProcess.js";

/** llama-server's `-fa`: flash attention on, off, or on when the model supports it. */
export type FlashAttention = "auto" | "on" | "off";

/** Options of {@link startLlamaServer}. */
export interface StartLlamaServerOptions {
  binary: string;
  modelPath: string;
  threads: number;
  contextSize: number;
  batchSize: number;
  /** `-fa`. Default `auto` (on for the models here, also on a CPU). */
  flashAttention?: FlashAttention;
  /** The build, its options and the CPU, named when llama-server crashes. */
  build: LlamaServerBuildInfo;
}

/** What a crash report says about the llama-server being run. */
export interface LlamaServerBuildInfo {
  /** Its CMake options. */
  cmakeOptions: Readonly<Record<string, string>>;
  /** Whether ggml's AMX kernels may be in it. */
  amx: boolean;
  cpu: CpuFeatures;
}

/** A llama-server on 127.0.0.1. */
export interface RunningLlamaServer {
  url: string;
  /**
   * After a failed request: the crash error when llama-server was killed by a signal (waiting a
   * few seconds for its exit to be seen), undefined when it is still running or exited by itself.
   */
  crashed(doing: string): Promise<LlamaBuildCrashError | undefined>;
  stop(): Promise<void>;
}

/**
 * Starts llama-server on a free 127.0.0.1 port with the adapter's settings: the same threads for
 * prompt and generation, context, batch, one slot, flash attention as asked, its default prompt
 * cache (8 GiB of RAM), no web UI. Waits until `/health` answers 200 (the model loaded).
 * @throws LlamaBuildCrashError when it is killed by a signal before it is healthy: the build, the
 *   CPU and the fix, instead of "exit code null".
 * @throws PartStartError or Error when it fails otherwise (its output is in the message).
 */
export async function startLlamaServer(options: StartLlamaServerOptions): Promise<RunningLlamaServer> {
  const port = await freePort();
  const crash = (signal: NodeJS.Signals, doing: string, output: string): LlamaBuildCrashError =>
    llamaServerCrash(options.build, signal, doing, output);
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
      ["-fa", options.flashAttention ?? "auto"],
      ["--no-webui"],
    ].flat(),
    // It listens before the model is loaded (`/health` answers 503 until then).
    readyLine: /listening on/,
    readyTimeoutMs: 300_000,
    classifyFailure: (output, _code, signal) =>
      signal === null ? undefined : crash(signal, "before it was listening", output),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, process_, crash);
  return {
    url,
    async crashed(doing) {
      // A request fails as the socket closes; the exit is seen a moment later.
      await Promise.race([process_.exited, sleep(5000)]);
      const signal = process_.child.signalCode;
      return signal === null ? undefined : crash(signal, doing, process_.output());
    },
    stop: () => process_.stop(),
  };
}

/** The crash error of a llama-server killed by `signal`. */
export function llamaServerCrash(
  build: LlamaServerBuildInfo,
  signal: NodeJS.Signals,
  doing: string,
  output: string,
): LlamaBuildCrashError {
  const flags = Object.entries(build.cmakeOptions)
    .filter(([name]) => name.startsWith("GGML_") || name.startsWith("CMAKE_C"))
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
  return new LlamaBuildCrashError({
    subject: "llama-server",
    build: `llama-server built from the bundled llama.cpp source (${flags})`,
    signal,
    doing,
    cpu: describeCpuFeatures(build.cpu),
    fix: crashFixFor({
      signal,
      cpu: build.cpu,
      amxCompiledIn: build.amx,
      withoutAmx: "run the bench without --llama-server-amx (AMX is then left out)",
      portable: "compare against the engine alone (`decisions bench` without --llama-server)",
    }),
    output,
  });
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
async function waitForHealth(
  url: string,
  server: ManagedProcess,
  crash: (signal: NodeJS.Signals, doing: string, output: string) => LlamaBuildCrashError,
): Promise<void> {
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
  const signal = server.child.signalCode;
  if (signal !== null) throw crash(signal, "while loading the model", server.output());
  const why = exited
    ? `exited with code ${server.child.exitCode} while loading the model`
    : "did not become healthy";
  await server.stop();
  throw new Error(`llama-server ${why}: ${server.output().slice(-2000)}`);
}
