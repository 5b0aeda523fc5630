import type { Llama, LlamaModel } from "node-llama-cpp";
import { sha256File } from "./sha256File.js";

/** What {@link openModel} opens. */
export interface OpenModelOptions {
  modelPath: string;
  /** 0 on CPU, -1 all layers on the GPU, N layers. */
  gpuLayers: number;
  /** A model already loaded from `modelPath`: used as is (and never disposed here). */
  model?: LlamaModel | undefined;
  /** The file's SHA-256 when already known: the file is then not hashed. */
  sha256?: string | undefined;
}

/** The outcome of {@link openModel}. */
export type OpenedModel = { ok: true; model: LlamaModel; sha256: string } | { ok: false; error: unknown };

/**
 * Loads the model (unless given) and hashes its file (unless the hash is given) side by side.
 * When one fails the other is aborted; both are settled before this returns, so no promise is left
 * unobserved, and a model loaded for nothing is disposed.
 *
 * @returns the model and hash, or the failure that explains why not (the first that happened; the
 *   other operation was only aborted because of it); it throws only if disposing an unneeded model fails.
 */
export async function openModel(llama: Llama, options: OpenModelOptions): Promise<OpenedModel> {
  const { gpuLayers } = options;
  const loading = new AbortController();
  const hashing = new AbortController();
  const loaded =
    options.model !== undefined
      ? Promise.resolve(options.model)
      : llama.loadModel({
          modelPath: options.modelPath,
          gpuLayers: gpuLayers === -1 ? "max" : gpuLayers,
          loadSignal: loading.signal,
        });
  const hashed =
    options.sha256 !== undefined
      ? Promise.resolve(options.sha256)
      : sha256File(options.modelPath, { signal: hashing.signal });
  const [model, sha256] = await Promise.allSettled([
    loaded.catch((error: unknown) => {
      hashing.abort();
      throw error;
    }),
    hashed.catch((error: unknown) => {
      loading.abort();
      throw error;
    }),
  ]);
  if (model.status === "fulfilled" && sha256.status === "fulfilled") {
    return { ok: true, model: model.value, sha256: sha256.value };
  }
  if (model.status === "fulfilled" && options.model === undefined) await model.value.dispose();
  // The failure that came first explains it; the other was only aborted because of it.
  const error =
    model.status === "rejected" && !loading.signal.aborted
      ? model.reason
      : sha256.status === "rejected"
        ? sha256.reason
        : (model as PromiseRejectedResult).reason;
  return { ok: false, error };
}
