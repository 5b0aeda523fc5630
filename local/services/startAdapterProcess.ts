import { PartStartError, PortInUseError } from "../errors.js";
import { type ChildServer, childServer, entryArgs, parseLogLine } from "./childEntry.js";
import { ManagedProcess } from "./ManagedProcess.js";

const PART = "the adapter";
const HOST = "127.0.0.1";

/** Options of {@link startAdapterProcess}. */
export interface StartAdapterProcessOptions {
  /** The GGUF to serve. */
  modelPath: string;
  /** Port on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /** llama.cpp threads. Default: the adapter's (the cores it may use). */
  threads?: number;
  /** Refuse a GGUF without `model-manifest.json`. Default true (the adapter's default). */
  requireManifest?: boolean;
  /** More `decisions serve` flags (`["--max-in-flight", "2"]`). Default none. */
  extraArgs?: string[];
  /**
   * The environment the adapter starts from: an entry point's own environment, or a test's.
   * Required: the malloc settings of {@link adapterEnvironment} are added to it.
   */
  env: Readonly<NodeJS.ProcessEnv>;
  /** How long loading and probing the model may take. Default 300000 ms. */
  readyTimeoutMs?: number;
}

/**
 * A running adapter process: `url` serves `/ping` and `/invocations`; `stop()` is SIGTERM (the
 * adapter drains and exits 0), `kill()` SIGKILL (a crash, for fault injection); `output()` is the
 * end of its JSON log.
 */
export type AdapterProcess = ChildServer;

/**
 * Starts the adapter (`decisions serve`) as a child process bound to 127.0.0.1 and waits until it
 * is ready: model found, verified against its manifest, loaded and probed. A process of its own,
 * like the container on SageMaker: its native memory and threads stay out of the stack's process,
 * and a test can kill it to see what the pipeline does without it.
 *
 * @throws {PortInUseError} when the port is taken.
 * @throws {PartStartError} when it fails to start (the reason it logged is in the message).
 */
export async function startAdapterProcess(options: StartAdapterProcessOptions): Promise<AdapterProcess> {
  const args = ["--model", options.modelPath, "--host", HOST, "--port", String(options.port ?? 0)];
  if (options.threads !== undefined) args.push("--threads", String(options.threads));
  if (options.requireManifest !== undefined) args.push("--require-manifest", String(options.requireManifest));
  args.push(...(options.extraArgs ?? []));
  let port: number | undefined;
  let failure: string | undefined;
  const child = await ManagedProcess.start({
    part: PART,
    command: process.execPath,
    args: [...entryArgs("adapterProcessMain"), ...args],
    env: adapterEnvironment(options.env),
    readyLine: /"event":"ready"/,
    readyTimeoutMs: options.readyTimeoutMs ?? 300_000,
    onLine: (line) => {
      const event = parseLogLine(line);
      if (event?.event === "listening" && typeof event.port === "number") port = event.port;
      if (event?.event === "startup_failed") failure = describeFailure(event);
    },
    classifyFailure: (output) => {
      if (/EADDRINUSE/.test(output)) return new PortInUseError(PART, HOST, options.port ?? 0);
      return failure === undefined
        ? undefined
        : new PartStartError(PART, `did not start: ${failure}`, output);
    },
  });
  return childServer(PART, child, port);
}

function describeFailure(event: Record<string, unknown>): string {
  const messages: string[] = [];
  let error = event.error as { message?: unknown; cause?: unknown } | undefined;
  while (error !== undefined && error !== null && messages.length < 5) {
    if (typeof error.message === "string") messages.push(error.message);
    error = error.cause as typeof error;
  }
  return messages.length > 0 ? messages.join(": ") : JSON.stringify(event.error ?? event);
}

/**
 * The adapter's environment: the given one, with two glibc malloc settings unless it sets them
 * itself (ignored where the C library is not glibc; the image sets the same):
 * - `MALLOC_ARENA_MAX=2`: one arena per thread is the default (libuv's pool, llama.cpp's threads,
 *   the main thread); one 60 s refusal storm on tiny-qwen3 grew RSS +17% with the default and
 *   +3.6% with 2.
 * - `MALLOC_MMAP_THRESHOLD_=262144`: a fixed threshold, so every allocation of 256 KiB or more —
 *   above all node-llama-cpp's vocabulary-sized sampler vectors (1.8 MB each, one per evaluation
 *   call; see adapter/engine/sequence/SamplerGarbage.ts) — is its own mapping, given back to the system when
 *   freed. glibc's default threshold rises to the size of the largest mapping freed, after which
 *   those vectors come from the arenas, whose freed space the process keeps: with it fixed, two 60 s
 *   storms of 50 clients ended at −6% and −4% RSS (+6% and +13% without), the same throughput.
 */
export function adapterEnvironment(env: Readonly<NodeJS.ProcessEnv>): NodeJS.ProcessEnv {
  return { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "262144", ...env };
}
