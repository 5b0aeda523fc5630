import { join } from "node:path";
import { defaultModelCacheDir, ensureGeneratedModel } from "../../adapter/models/generateModel.js";
import { DEFAULT_MODEL_SEED, type ModelKind } from "../../adapter/models/modelKinds.js";
import {
  modelManifestPath,
  readModelManifest,
  sha256File,
  writeModelManifest,
} from "../../adapter/models/modelManifest.js";

/** The model the local stack serves. */
export interface StackModel {
  /** The GGUF's path. */
  path: string;
  /**
   * SHA-256 of the GGUF: as its `model-manifest.json` records it (the adapter refuses a file that
   * differs), or hashed here when it has none. What outcomes record as `model_sha256`.
   */
  sha256: string;
  /** True for the generated demo model: random weights, meaningless answers, a real pipeline. */
  generated: boolean;
  /** The generated kind, when generated. */
  kind?: ModelKind;
}

/** The generated model the local stack serves unless it is given one. */
export const DEMO_MODEL_KIND: ModelKind = "tiny-qwen3";

/** The notice shown whenever the stack runs on the generated demo model. */
export const DEMO_MODEL_NOTICE =
  "NOTICE: serving the generated demo model — its weights are random, so its answers are meaningless;\n" +
  "        the pipeline around it is real. Pass --model <file.gguf> (or DECISIONS_MODEL) for real answers.";

/**
 * The model of the local stack: the given GGUF as is, or the generated demo model (generated once
 * into `<repo>/.cache/local-stack/<kind>/`, its `model-manifest.json` written afresh beside it, as
 * the generator may have changed since).
 */
export async function prepareStackModel(
  modelPath: string | undefined,
  kind = DEMO_MODEL_KIND,
): Promise<StackModel> {
  if (modelPath !== undefined) {
    const manifest = await readModelManifest(modelManifestPath(modelPath)).catch(() => undefined);
    return { path: modelPath, sha256: manifest?.sha256 ?? (await sha256File(modelPath)), generated: false };
  }
  const path = await ensureGeneratedModel(kind, {
    cacheDir: join(defaultModelCacheDir(), "..", "local-stack", kind),
  });
  const manifest = await writeModelManifest(path, {
    source: `generated:${kind}`,
    revision: `seed ${DEFAULT_MODEL_SEED}`,
  });
  return { path, sha256: manifest.sha256, generated: true, kind };
}
