import { randomBytes } from "node:crypto";
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { sha256File } from "../engine/model/sha256File.js";
import { ModelManifestError, ModelManifestMismatchError } from "./errors.js";

/** File name of the manifest that sits beside a GGUF. */
export const MODEL_MANIFEST_FILE_NAME = "model-manifest.json";

/** Contents of `model-manifest.json`: which GGUF this is and where it came from. */
export interface ModelManifest {
  /** File name of the GGUF (no folder), e.g. `Qwen3.5-4B-Q4_K_M.gguf`. */
  file: string;
  /** SHA-256 of the GGUF, lower-case hex. */
  sha256: string;
  size_bytes: number;
  /** Where the GGUF came from (a URL, a Hugging Face repo, `generated:<kind>`), or null when unknown. */
  source: string | null;
  /** The source's revision (commit, tag), or null when unknown. */
  revision: string | null;
  /** When the manifest was written, ISO 8601. */
  created_at: string;
  /** For a model pulled from a hub: the repository, `<owner>/<name>`. Absent otherwise. */
  repo?: string;
  /** For a model pulled from a hub: the commit sha its revision resolved to (40 hex). Absent otherwise. */
  commit?: string;
  /**
   * For a model pulled from a hub: the license the repository states (its card's `license`, else a
   * `license:` tag), or null when it states none. Absent otherwise.
   */
  license?: string | null;
}

/** The hub fields of a manifest ({@link ModelManifest.repo}, `commit`, `license`), when it has them. */
export type ModelManifestHubFields = Pick<ModelManifest, "repo" | "commit" | "license">;

/** Options of {@link writeModelManifest}. */
export interface WriteModelManifestOptions {
  /** Where the GGUF came from. Default null. */
  source?: string;
  /** The source's revision. Default null. */
  revision?: string;
  /** Hub fields to record (a pulled model's repository, commit and license). Default none. */
  hub?: ModelManifestHubFields;
}

/** Result of {@link verifyModelManifest}. */
export interface ModelManifestVerification {
  /** SHA-256 of the GGUF as it is on disk. */
  sha256: string;
  sizeBytes: number;
  /** The manifest beside the GGUF, or null when there is none. */
  manifest: ModelManifest | null;
}

/** Path of the manifest that belongs beside `ggufPath`. */
export function modelManifestPath(ggufPath: string): string {
  return join(dirname(resolve(ggufPath)), MODEL_MANIFEST_FILE_NAME);
}

/**
 * Hashes a GGUF and writes `model-manifest.json` beside it (atomically: temporary file, then rename),
 * replacing any manifest already there.
 * @returns the manifest written.
 * @throws {ModelManifestError} when the GGUF cannot be read or the manifest cannot be written.
 * @example
 * ```ts
 * await writeModelManifest("/opt/ml/model/model.gguf", { source: "hf:unsloth/Qwen3.5-4B-GGUF", revision: "main" });
 * ```
 */
export async function writeModelManifest(
  ggufPath: string,
  options: WriteModelManifestOptions = {},
): Promise<ModelManifest> {
  const path = resolve(ggufPath);
  const { sizeBytes, sha256 } = await measureModelFile(path);
  const manifest: ModelManifest = {
    file: basename(path),
    sha256,
    size_bytes: sizeBytes,
    source: options.source ?? null,
    revision: options.revision ?? null,
    created_at: new Date().toISOString(),
    ...hubFields(options.hub),
  };
  await writeModelManifestFile(path, manifest);
  return manifest;
}

/**
 * Writes a manifest already known (the GGUF's sha256 and size measured by the caller, as a
 * download does while it receives the bytes) beside `ggufPath`, atomically: a temporary file, then a
 * rename, replacing any manifest there.
 * @throws {ModelManifestError} when the manifest cannot be written.
 */
export async function writeModelManifestFile(ggufPath: string, manifest: ModelManifest): Promise<void> {
  const target = modelManifestPath(ggufPath);
  const temporary = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ModelManifestError(`cannot write the manifest ${target}`, { cause: error });
  }
}

/** The hub fields that are set, so a manifest without them is written as before. */
export function hubFields(fields: ModelManifestHubFields | undefined): ModelManifestHubFields {
  if (fields === undefined) return {};
  return {
    ...(fields.repo === undefined ? {} : { repo: fields.repo }),
    ...(fields.commit === undefined ? {} : { commit: fields.commit }),
    ...(fields.license === undefined ? {} : { license: fields.license }),
  };
}

/**
 * Reads and validates a `model-manifest.json`.
 * @param path path of the manifest file itself.
 * @throws {ModelManifestError} when the file cannot be read, is not JSON, or lacks a field.
 */
export async function readModelManifest(path: string): Promise<ModelManifest> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ModelManifestError(`cannot read the model manifest ${path}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ModelManifestError(`the model manifest ${path} is not valid JSON`, { cause: error });
  }
  return parseManifest(value, path);
}

/**
 * Checks a GGUF against the `model-manifest.json` beside it: same file name, size and sha256.
 * Without a manifest the GGUF is only hashed (`manifest: null`); the caller decides whether that is
 * acceptable.
 * @throws {ModelManifestMismatchError} when the GGUF differs from its manifest; the message names the
 * file and the expected and actual sha256 and size.
 * @throws {ModelManifestError} when the GGUF or the manifest cannot be read, or the manifest is invalid.
 */
export async function verifyModelManifest(ggufPath: string): Promise<ModelManifestVerification> {
  const path = resolve(ggufPath);
  const manifestPath = modelManifestPath(path);
  let manifest: ModelManifest | null = null;
  const manifestStat = await stat(manifestPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ModelManifestError(`cannot read the model manifest ${manifestPath}`, { cause: error });
  });
  if (manifestStat !== undefined) manifest = await readModelManifest(manifestPath);

  const { sizeBytes, sha256 } = await measureModelFile(path);
  if (manifest !== null) {
    const problems: string[] = [];
    if (manifest.file !== basename(path)) problems.push(`the manifest describes "${manifest.file}"`);
    if (manifest.size_bytes !== sizeBytes)
      problems.push(`size expected ${manifest.size_bytes}, actual ${sizeBytes}`);
    if (manifest.sha256 !== sha256) problems.push(`sha256 expected ${manifest.sha256}, actual ${sha256}`);
    if (problems.length > 0) {
      throw new ModelManifestMismatchError(
        `${path} does not match ${manifestPath}: ${problems.join("; ")}. Refusing a model that is not the one recorded.`,
      );
    }
  }
  return { sha256, sizeBytes, manifest };
}

function parseManifest(value: unknown, path: string): ModelManifest {
  const fail = (field: string): never => {
    throw new ModelManifestError(`the model manifest ${path} has no valid "${field}"`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ModelManifestError(`the model manifest ${path} is not a JSON object`);
  }
  const record = value as Record<string, unknown>;
  const { file, sha256, size_bytes, source, revision, created_at, repo, commit, license } = record;
  if (typeof file !== "string" || file.length === 0 || basename(file) !== file) fail("file");
  if (typeof sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sha256)) fail("sha256");
  if (typeof size_bytes !== "number" || !Number.isSafeInteger(size_bytes) || size_bytes < 0)
    fail("size_bytes");
  if (source !== undefined && source !== null && typeof source !== "string") fail("source");
  if (revision !== undefined && revision !== null && typeof revision !== "string") fail("revision");
  if (typeof created_at !== "string") fail("created_at");
  if (repo !== undefined && (typeof repo !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(repo))) fail("repo");
  if (commit !== undefined && (typeof commit !== "string" || !/^[0-9a-f]{40}$/.test(commit))) fail("commit");
  if (license !== undefined && license !== null && typeof license !== "string") fail("license");
  return {
    file: file as string,
    sha256: sha256 as string,
    size_bytes: size_bytes as number,
    source: (source as string | null | undefined) ?? null,
    revision: (revision as string | null | undefined) ?? null,
    created_at: created_at as string,
    ...hubFields({
      repo: repo as string | undefined,
      commit: commit as string | undefined,
      license: license as string | null | undefined,
    }),
  };
}

export { sha256File };

/** Size and SHA-256 of a GGUF. @throws {ModelManifestError} when it cannot be read. */
async function measureModelFile(path: string): Promise<{ sizeBytes: number; sha256: string }> {
  try {
    return { sizeBytes: (await stat(path)).size, sha256: await sha256File(path) };
  } catch (error) {
    throw new ModelManifestError(`cannot read the model ${path}`, { cause: error });
  }
}
