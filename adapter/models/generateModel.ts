import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { GgufWriteProgress } from "../gguf/index.js";
import { createModelWriter } from "./createModelWriter.js";
import { ModelFileError, ModelGenerationError } from "./errors.js";
import {
  DEFAULT_MODEL_SEED,
  getModelKindSpec,
  MODEL_GENERATOR_VERSION,
  type ModelKind,
} from "./modelKinds.js";
import { packageRoot } from "./packageRoot.js";
import { readGeneratorVersion } from "./readGeneratorVersion.js";

/** Options of {@link generateModel}. */
export interface GenerateModelOptions {
  /** The kind to generate (see `MODEL_KINDS`). */
  kind: ModelKind | string;
  /** Path of the GGUF to write; its folder is created. An existing file is replaced atomically. */
  out: string;
  /** Seed of the weights. Default {@link DEFAULT_MODEL_SEED}. */
  seed?: number;
  /** Called after each tensor is written. Default: none. */
  onProgress?: (progress: GgufWriteProgress) => void;
  /** Aborts the generation; the temporary file is removed. */
  signal?: AbortSignal;
}

/** What {@link generateModel} wrote. */
export interface GeneratedModel {
  /** Absolute path of the GGUF. */
  path: string;
  sizeBytes: number;
  /** SHA-256 of the file, lower-case hex. */
  sha256: string;
  kind: ModelKind;
  seed: number;
}

/**
 * Generates a model of the given kind into `out`: written to a temporary file in the same folder,
 * then renamed, so a reader never sees a half-written GGUF. The same kind and seed always give the
 * same bytes (and sha256).
 * @throws {ModelGenerationError} for an unknown kind or a failed write (the cause is kept).
 * @throws the signal's reason when aborted.
 * @example
 * ```ts
 * const { path, sha256 } = await generateModel({ kind: "tiny-qwen3", out: "/tmp/tiny-qwen3.gguf" });
 * ```
 */
export async function generateModel(options: GenerateModelOptions): Promise<GeneratedModel> {
  const spec = getModelKindSpec(options.kind);
  const seed = options.seed ?? DEFAULT_MODEL_SEED;
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new ModelGenerationError(`seed must be a non-negative integer, got ${seed}`);
  }
  const path = resolve(options.out);
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    const { writer } = await createModelWriter(spec.kind, { seed });
    const result = await writer.write(temporary, { onProgress: options.onProgress, signal: options.signal });
    await rename(temporary, path);
    return { path, sizeBytes: result.sizeBytes, sha256: result.sha256, kind: spec.kind, seed };
  } catch (error) {
    await rm(temporary, { force: true });
    if (options.signal?.aborted && error === options.signal.reason) throw error;
    if (error instanceof ModelFileError) throw error;
    throw new ModelGenerationError(`cannot generate ${spec.kind} at ${path}: ${describe(error)}`, {
      cause: error,
    });
  }
}

/** Options of {@link ensureGeneratedModel}. */
export interface EnsureGeneratedModelOptions {
  /** Folder of the cache. Default `<repo>/.cache/models` ({@link defaultModelCacheDir}). */
  cacheDir?: string;
  /** Seed of the weights. Default {@link DEFAULT_MODEL_SEED}. */
  seed?: number;
  /** Progress of the generation, when one is needed. Default: none. */
  onProgress?: (progress: GgufWriteProgress) => void;
}

const pending = new Map<string, Promise<string>>();

/**
 * Returns the path of a cached generated model, generating it first when missing or made by another
 * generator version (`<cacheDir>/<kind>-seed<seed>.gguf`; see `MODEL_GENERATOR_VERSION`). Safe under concurrency: calls in one process share one
 * generation, and separate processes each write a temporary file and rename it, so nobody sees a
 * partial file (the bytes are identical whoever wins).
 * @throws {ModelGenerationError} for an unknown kind or a failed write.
 * @example
 * ```ts
 * const modelPath = await ensureGeneratedModel("tiny-llama");
 * const model = await llama.loadModel({ modelPath });
 * ```
 */
export function ensureGeneratedModel(
  kind: ModelKind | string,
  options: EnsureGeneratedModelOptions = {},
): Promise<string> {
  const spec = getModelKindSpec(kind);
  const seed = options.seed ?? DEFAULT_MODEL_SEED;
  const path = resolve(options.cacheDir ?? defaultModelCacheDir(), generatedModelFileName(spec.kind, seed));
  let job = pending.get(path);
  if (job === undefined) {
    job = ensureFile(path, spec.kind, seed, options.onProgress).finally(() => pending.delete(path));
    pending.set(path, job);
  }
  return job;
}

async function ensureFile(
  path: string,
  kind: ModelKind,
  seed: number,
  onProgress: ((progress: GgufWriteProgress) => void) | undefined,
): Promise<string> {
  const existing = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ModelGenerationError(`cannot read the model cache at ${path}`, { cause: error });
  });
  if (existing?.isFile()) {
    const version = await readGeneratorVersion(path).catch((error: unknown) => {
      throw new ModelGenerationError(`cannot read the cached model ${path}`, { cause: error });
    });
    if (version === MODEL_GENERATOR_VERSION) return path;
  }
  await generateModel({ kind, out: path, seed, onProgress });
  return path;
}

/** File name of a cached generated model: `<kind>-seed<seed>.gguf`. */
export function generatedModelFileName(kind: ModelKind, seed: number): string {
  return `${kind}-seed${seed}.gguf`;
}

/**
 * The default cache folder, `<repo>/.cache/models`, where `<repo>` is the nearest folder above this
 * module that holds a `package.json` (the same from sources and from `dist/`).
 */
export function defaultModelCacheDir(): string {
  return join(packageRoot(), ".cache", "models");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
