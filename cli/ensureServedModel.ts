import { dirname, join } from "node:path";
import { defaultModelCacheDir, ensureGeneratedModel } from "../adapter/models/generateModel.js";
import { DEFAULT_MODEL_SEED, type ModelKind } from "../adapter/models/modelKinds.js";
import { writeModelManifest } from "../adapter/models/modelManifest.js";
import type { CliOutput } from "./types.js";

/**
 * The generated model of `kind` that `decisions serve --generate` (and `start`) serves: generated
 * once into a folder of its own under `.cache/served/<kind>/` (a manifest belongs to exactly one
 * GGUF), with its `model-manifest.json` written afresh, since the GGUF is regenerated whenever the
 * generator changes and an old manifest must never outlive it. Progress goes to `stderr`.
 *
 * @returns the GGUF's path.
 * @throws ModelGenerationError when the model cannot be written.
 */
export async function ensureServedModel(kind: ModelKind, stderr: CliOutput["stderr"]): Promise<string> {
  let shown = -1;
  const path = await ensureGeneratedModel(kind, {
    cacheDir: join(dirname(defaultModelCacheDir()), "served", kind),
    onProgress: ({ bytesWritten, totalBytes }) => {
      const percent = Math.floor((100 * bytesWritten) / Math.max(1, totalBytes) / 10) * 10;
      if (percent === shown) return;
      shown = percent;
      stderr.write(`generating the ${kind} model: ${percent}%\n`);
    },
  });
  await writeModelManifest(path, {
    source: `decisions models generate --kind ${kind}`,
    revision: `seed ${DEFAULT_MODEL_SEED}`,
  });
  return path;
}
