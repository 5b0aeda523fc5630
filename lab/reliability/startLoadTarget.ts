/**
 * What a load run is aimed at: the real adapter as its own process on a generated model (state
 * files in a private folder, so they can be counted), and optionally the local SageMaker gateway
 * in front of it as a process of its own (so its memory and descriptors are not the load
 * generator's), all on 127.0.0.1.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AdapterProcess,
  type GatewayProcess,
  prepareStackModel,
  startAdapterProcess,
  startGatewayProcess,
} from "../../local/index.js";

/** Options of {@link startLoadTarget}; every default is applied here. */
export interface StartLoadTargetOptions {
  /** A GGUF to serve. Default: the generated tiny-qwen3 of the local stack. */
  model?: string;
  /** llama.cpp threads of the adapter. Default 2. */
  threads?: number;
  /** More `decisions serve` flags (admission: `--max-in-flight`, `--queue-depth`; `--cache-max-bytes`). Default none. */
  adapterArgs?: string[];
  /** Start the SageMaker gateway (its own process) in front of the adapter. Default false. */
  gateway?: boolean;
  /** The endpoint name the gateway serves. Default `"decisions"`. */
  endpointName?: string;
  /** The adapter's environment, from the entry point (`process.env`); its `TMPDIR` is replaced. */
  env: NodeJS.ProcessEnv;
}

/** The running target; `stop()` stops the gateway and the adapter and removes the state folder. */
export interface LoadTarget {
  adapter: AdapterProcess;
  /** The adapter's temporary folder (`TMPDIR`): its saved state files live below it. */
  stateDir: string;
  /** The gateway process, when it runs: `pid` to sample, `upstreamFailures()` for its 503s' causes. */
  gateway?: GatewayProcess;
  /** The gateway's invocation path, when it runs. */
  gatewayPath?: string;
  stop(): Promise<void>;
}

/** Starts the adapter (and the gateway when asked) and waits until they are ready. */
export async function startLoadTarget(options: StartLoadTargetOptions): Promise<LoadTarget> {
  const model = await prepareStackModel(options.model);
  const stateDir = await mkdtemp(join(tmpdir(), "decisions-load-"));
  let adapter: AdapterProcess | undefined;
  try {
    adapter = await startAdapterProcess({
      modelPath: model.path,
      threads: options.threads ?? 2,
      extraArgs: options.adapterArgs ?? [],
      env: { ...options.env, TMPDIR: stateDir },
    });
    const endpointName = options.endpointName ?? "decisions";
    const gateway =
      options.gateway === true
        ? await startGatewayProcess({ endpoints: { [endpointName]: adapter.url } })
        : undefined;
    const running = adapter;
    return {
      adapter: running,
      stateDir,
      ...(gateway !== undefined
        ? { gateway, gatewayPath: `/endpoints/${encodeURIComponent(endpointName)}/invocations` }
        : {}),
      async stop() {
        await gateway?.stop();
        await running.stop();
        await rm(stateDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await adapter?.stop();
    await rm(stateDir, { recursive: true, force: true });
    throw error;
  }
}
