import { postJson } from "../postJson.js";
import type { LlamaServerBinary } from "./buildLlamaServer.js";
import { type LlamaServerBuildInfo, startLlamaServer } from "./startLlamaServer.js";

/** Options of {@link smokeTestLlamaServer}. */
export interface SmokeTestLlamaServerOptions {
  binary: Pick<LlamaServerBinary, "path" | "cmakeOptions" | "amx">;
  /** A generated GGUF (`ensureGeneratedModel("tiny-qwen3")`). */
  modelPath: string;
  cpu: LlamaServerBuildInfo["cpu"];
  threads: number;
}

/** One short prompt: enough tokens for a batched evaluation (the matrix kernels). */
const PROMPT =
  "<|im_start|>user\nA customer writes that the parcel arrived damaged and asks for a refund. " +
  "Should the request go to billing or to shipping?<|im_end|>\n<|im_start|>assistant\n";

/**
 * Proves a llama-server build runs here before the bench uses it: starts it on a generated model
 * (llama-server warms the model up with an empty run as it loads), asks for one token of one
 * prompt, and stops it. Returns the milliseconds the whole took.
 * @throws LlamaBuildCrashError when llama-server is killed by a signal (the build, CPU and fix).
 * @throws Error when it fails otherwise.
 */
export async function smokeTestLlamaServer(options: SmokeTestLlamaServerOptions): Promise<number> {
  const started = performance.now();
  const build = { cmakeOptions: options.binary.cmakeOptions, amx: options.binary.amx, cpu: options.cpu };
  const server = await startLlamaServer({
    binary: options.binary.path,
    modelPath: options.modelPath,
    threads: options.threads,
    contextSize: 512,
    batchSize: 512,
    build,
  });
  try {
    const answer = await postJson(`${server.url}/completion`, {
      prompt: PROMPT,
      n_predict: 1,
      temperature: 0,
    }).catch(async (error: unknown) => {
      throw (await server.crashed("while evaluating the smoke test's prompt")) ?? error;
    });
    if (answer.status !== 200) {
      throw new Error(
        `llama-server's smoke test answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`,
      );
    }
    return performance.now() - started;
  } finally {
    await server.stop();
  }
}
