import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { GgufFileType, type LlamaModel } from "node-llama-cpp";
import type { ModelIdentity } from "../types.js";

/**
 * The identity of a loaded model, reported with every result and in the server's `ready` line:
 * file name and size, SHA-256, architecture, `general.name`, parameter count, dominant tensor
 * type, vocabulary size, trained context and whether its state is attention (truncatable) or
 * recurrent/hybrid (snapshots only).
 *
 * @param sha256 the file's SHA-256, already known or computed by the caller.
 * @throws the file system's error when the file cannot be stat'ed.
 */
export async function describeModel(model: LlamaModel, path: string, sha256: string): Promise<ModelIdentity> {
  const metadata = model.fileInfo.metadata;
  const fileType = metadata.general.file_type;
  const tokens = metadata.tokenizer?.ggml?.tokens;
  return {
    file: basename(path),
    size_bytes: (await stat(path)).size,
    sha256,
    architecture: String(metadata.general.architecture),
    name: metadata.general.name ?? null,
    parameter_count: model.fileInsights.totalParameters,
    quantization:
      fileType === undefined
        ? "unknown"
        : (GgufFileType[fileType] ?? String(fileType)).replace(/^(MOSTLY|ALL)_/, ""),
    vocab_size: Array.isArray(tokens) ? tokens.length : 0,
    train_context_size: model.trainContextSize,
    state_kind: model.fileInsights.isRecurrent || model.fileInsights.isHybrid ? "recurrent" : "attention",
  };
}
