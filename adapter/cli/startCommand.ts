/**
 * `decisions start` (what `npm start` runs): the decision adapter on an embedded default model,
 * generated on first use, so a fresh clone serves real llama.cpp decisions with no download.
 */
import { dirname, join } from "node:path";
import { defaultModelCacheDir, ensureGeneratedModel } from "../models/generateModel.js";
import { isModelKind, MODEL_KINDS } from "../models/modelKinds.js";
import { writeModelManifest } from "../models/modelManifest.js";
import { readServerConfig } from "../server/config.js";
import { serve } from "../server/serve.js";
import { type CliCommand, UsageError } from "./main.js";
import { parseServeArgs, serveUsage } from "./serveCommand.js";

/** The model `decisions start` serves unless `--kind` names another generated kind. */
export const DEFAULT_START_KIND = "tiny-qwen3";

/** The `start` sub-command: generate (once) the default model and its manifest, then serve it. */
export const startCommand: CliCommand = {
  summary: `serve the adapter on a generated model (default ${DEFAULT_START_KIND}); what npm start runs`,
  async run(args) {
    const kindIndex = args.indexOf("--kind");
    const kind = kindIndex === -1 ? DEFAULT_START_KIND : args[kindIndex + 1];
    if (kind === undefined || !isModelKind(kind)) {
      throw new UsageError(`--kind must be one of ${MODEL_KINDS.join(", ")}`);
    }
    const rest = kindIndex === -1 ? args : [...args.slice(0, kindIndex), ...args.slice(kindIndex + 2)];
    const { help, flags } = parseServeArgs(rest);
    if (help) {
      process.stdout.write(`usage: decisions start [--kind ${MODEL_KINDS.join("|")}] [serve options]\n\n`);
      process.stdout.write(serveUsage());
      return 0;
    }
    const modelPath = await ensureStartModel(kind);
    const config = readServerConfig(process.env, { model: modelPath, ...flags });
    return serve(config);
  },
};

/**
 * The generated model in a folder of its own under the model cache (a manifest belongs to exactly
 * one GGUF), with its `model-manifest.json` written afresh: the GGUF is regenerated whenever the
 * generator changes, so an old manifest must never outlive it.
 */
async function ensureStartModel(kind: string): Promise<string> {
  let shown = -1;
  const path = await ensureGeneratedModel(kind, {
    cacheDir: join(dirname(defaultModelCacheDir()), "start", kind),
    onProgress: ({ bytesWritten, totalBytes }) => {
      const percent = Math.floor((100 * bytesWritten) / Math.max(1, totalBytes) / 10) * 10;
      if (percent === shown) return;
      shown = percent;
      process.stderr.write(`generating the ${kind} model: ${percent}%\n`);
    },
  });
  await writeModelManifest(path, { source: `decisions models generate --kind ${kind}`, revision: "seed 42" });
  return path;
}
