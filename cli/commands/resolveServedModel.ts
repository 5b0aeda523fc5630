/**
 * `--model hf:<owner>/<name>/<file>[@<revision>]` of `decisions up` and `decisions start`: the hub
 * model is pulled once into the project's model cache (`.cache/hub/<owner>--<name>/<commit>/`),
 * pinned and verified, and the stack serves the file there. A later run finds it and downloads
 * nothing (with a commit sha as the revision it does not even ask the hub).
 */

import { ModelHubError } from "../../adapter/models/errors.js";
import { HubClient } from "../../adapter/models/HubClient.js";
import { type HubModelRef, isHubModelUri, parseHubModelUri } from "../../adapter/models/hubModelRef.js";
import { pullHubModel } from "../../adapter/models/pullHubModel.js";
import { UsageError } from "../errors.js";
import type { CliOutput } from "../types.js";
import { createPullProgress } from "./pullProgress.js";

/** The hub's settings a pull reads from the environment. */
export interface HubEnvironment {
  /** Base URL of the hub or a mirror. Default the Hugging Face Hub. */
  HF_ENDPOINT?: string | undefined;
  /** Access token, for gated and private repositories. */
  HF_TOKEN?: string | undefined;
}

/** A {@link HubClient} on the environment's `HF_ENDPOINT` and `HF_TOKEN` (blank counts as unset). */
export function hubClientFromEnv(env: Readonly<HubEnvironment>): HubClient {
  const endpoint = env.HF_ENDPOINT?.trim() || undefined;
  const token = env.HF_TOKEN?.trim() || undefined;
  return new HubClient({ endpoint, token });
}

/** Options of {@link resolveServedModel}. */
export interface ResolveServedModelOptions {
  /** `HF_ENDPOINT` and `HF_TOKEN`. */
  env: Readonly<HubEnvironment>;
  /** Where the pull's notes and progress go. */
  stderr: CliOutput["stderr"];
  /** The cache folder. Default: the project's, `.cache/hub`. */
  cacheDir?: string;
}

/**
 * The GGUF path to serve for a `--model` value: a hub URI is pulled (once) and its cached path
 * returned; anything else (a path, or nothing) is returned as it is.
 * @throws UsageError for a hub URI that cannot name a file (`hf:<owner>/<name>/<file>[@<revision>]`).
 * @throws ModelHubError or ModelChecksumMismatchError when the pull fails (its message says what to do).
 * @example
 * ```ts
 * const model = await resolveServedModel("hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf", { env, stderr });
 * ```
 */
export async function resolveServedModel(
  model: string | undefined,
  options: ResolveServedModelOptions,
): Promise<string | undefined> {
  if (model === undefined || !isHubModelUri(model)) return model;
  let ref: HubModelRef;
  try {
    ref = parseHubModelUri(model);
  } catch (error) {
    if (error instanceof ModelHubError) throw new UsageError(`--model: ${error.message}`, { cause: error });
    throw error;
  }
  const { stderr } = options;
  const progress = createPullProgress(stderr, ref.file);
  try {
    const pulled = await pullHubModel({
      ref,
      client: hubClientFromEnv(options.env),
      ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
      onProgress: progress.onProgress,
      onNote: (line) => stderr.write(`${line}\n`),
    });
    progress.stop();
    stderr.write(
      `${pulled.downloaded ? "pulled" : "cached"} ${model} → ${pulled.path} (commit ${pulled.commit}, sha256 ${pulled.sha256})\n`,
    );
    return pulled.path;
  } finally {
    progress.stop();
  }
}
