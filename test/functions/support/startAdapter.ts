/**
 * The real adapter (`serve`) on the generated tiny-qwen3 model, in this process on 127.0.0.1, as
 * test/adapter/server/server.integration.test.ts starts it.
 */
import { EventEmitter } from "node:events";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import { serve } from "../../../adapter/server/serve.js";
import { CapturingLogger, testSettings } from "../../adapter/server/serverHarness.js";

/** A running adapter. */
export interface RunningAdapter {
  url: string;
  stop(): Promise<void>;
}

/** Starts the adapter on tiny-qwen3 with 2 threads; resolves once it answers /ping. */
export async function startAdapter(): Promise<RunningAdapter> {
  const folder = await mkdtemp(join(tmpdir(), "decide-adapter-"));
  const modelDir = join(folder, "model");
  await mkdir(modelDir, { recursive: true });
  const gguf = join(modelDir, "tiny-qwen3.gguf");
  await copyFile(await ensureGeneratedModel("tiny-qwen3"), gguf);
  await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42" });
  const signals = new EventEmitter();
  const logger = new CapturingLogger();
  let exited: Promise<number> = Promise.resolve(0);
  const port = await new Promise<number>((resolve) => {
    exited = serve(testSettings({ modelDir, threads: 2 }), {
      logger,
      signals,
      onReady: (server) => resolve(server.address.port),
    });
    void exited.then((code) => resolve(-code));
  });
  if (port <= 0) {
    await rm(folder, { recursive: true, force: true });
    throw new Error(`the adapter did not start: ${JSON.stringify(logger.events("startup_failed"))}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      signals.emit("SIGTERM");
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}
