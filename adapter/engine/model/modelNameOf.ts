import type { ModelIdentity } from "../types.js";

/**
 * The name every response's `model` field reports (SemIf results, System One, chat): the GGUF's
 * `general.name`, else its file name without `.gguf`. The one place a model is named.
 *
 * @example modelNameOf({ ...identity, name: null, file: "Qwen3.5-4B-Q4_K_M.gguf" }) === "Qwen3.5-4B-Q4_K_M"
 */
export function modelNameOf(identity: Pick<ModelIdentity, "name" | "file">): string {
  const name = identity.name?.trim();
  return name !== undefined && name !== "" ? name : identity.file.replace(/\.gguf$/i, "");
}
